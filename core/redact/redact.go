package redact

import (
	"net/url"
	"slices"
	"strings"
)

// Mask is what a secret value is replaced with.
const Mask = "****"

// secretWords are the words that make a name secret wherever they stand:
// "DB_PWD", "X-Api-Key", "clientSecret".
var secretWords = map[string]bool{
	"token": true, "tokens": true, "secret": true, "secrets": true,
	"password": true, "passwd": true, "pwd": true, "pass": true, "passphrase": true,
	"key": true, "apikey": true, "credential": true, "credentials": true,
	"auth": true, "authorization": true, "cookie": true, "bearer": true,
	"signature": true, "sig": true, "jwt": true, "pat": true, "sessionid": true,
}

// secretSuffixes make a one-word name secret: "GHTOKEN", "XAPIKEY".
var secretSuffixes = []string{"token", "secret", "password", "passwd", "apikey", "sessionid"}

// plainLastWords name what a setting is about rather than the secret
// itself: "TOKEN_FILE" is a path, "auth_url" an address, "session_count"
// a number.
var plainLastWords = map[string]bool{
	"file": true, "path": true, "dir": true, "url": true, "uri": true, "endpoint": true,
	"name": true, "env": true, "type": true, "mode": true, "method": true, "scheme": true,
	"format": true, "count": true, "length": true, "ttl": true,
}

// Name reports whether a value stored under name (an environment
// variable, HTTP header, URL query parameter or command-line flag without
// its dashes) is a secret. The session id header Mcp-Session-Id and the
// shell's PWD and OLDPWD (directories) are not.
func Name(name string) bool {
	if name == "PWD" || name == "OLDPWD" {
		return false
	}
	w := words(name)
	if len(w) == 0 || plainLastWords[w[len(w)-1]] {
		return false
	}
	joined := strings.Join(w, "")
	if joined == "mcpsessionid" {
		return false
	}
	// "session" alone, or as "session id", is a session credential.
	if joined == "session" || (len(w) >= 2 && w[len(w)-2] == "session" && w[len(w)-1] == "id") {
		return true
	}
	for _, x := range w {
		if secretWords[x] {
			return true
		}
	}
	return slices.ContainsFunc(secretSuffixes, func(s string) bool { return strings.HasSuffix(joined, s) })
}

// words splits a name into lower-case words at every character that is
// not a letter or digit and where lower case turns to upper case
// ("apiKey" → api, key; "DB_PWD" → db, pwd).
func words(name string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(name); i++ {
		var c byte
		if i < len(name) {
			c = name[i]
		}
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		camel := alnum && start >= 0 && c >= 'A' && c <= 'Z' && name[i-1] >= 'a' && name[i-1] <= 'z'
		if start >= 0 && (!alnum || camel) {
			out = append(out, strings.ToLower(name[start:i]))
			start = -1
		}
		if alnum && start < 0 {
			start = i
		}
	}
	return out
}

// queryName reports whether a URL query parameter is secret: a secret
// name, or the OAuth authorization response's code and state.
func queryName(name string) bool {
	l := strings.ToLower(name)
	return l == "code" || l == "state" || Name(name)
}

// URL returns u with its password and the values of its secret query
// parameters (and fragment parameters, as in an implicit-grant redirect)
// masked. A string that is not a URL is returned as it is.
func URL(u string) string {
	out, _ := scanURL(u)
	return out
}

// URLSecrets returns the secret values of u that URL masks.
func URLSecrets(u string) []string {
	_, secrets := scanURL(u)
	return secrets
}

func scanURL(u string) (string, []string) {
	if !strings.Contains(u, "://") {
		return u, nil
	}
	p, err := url.Parse(u)
	if err != nil {
		return u, nil
	}
	var secrets []string
	changed := false
	if pw, ok := p.User.Password(); ok && pw != "" {
		secrets = append(secrets, pw)
		p.User = url.UserPassword(p.User.Username(), Mask)
		changed = true
	}
	maskQuery := func(raw string) string {
		parts := strings.Split(raw, "&")
		for i, part := range parts {
			k, v, ok := strings.Cut(part, "=")
			name, err := url.QueryUnescape(k)
			if !ok || v == "" || err != nil || !queryName(name) {
				continue
			}
			if val, err := url.QueryUnescape(v); err == nil && val != v {
				secrets = append(secrets, val)
			}
			secrets = append(secrets, v)
			parts[i] = k + "=" + Mask
			changed = true
		}
		return strings.Join(parts, "&")
	}
	p.RawQuery = maskQuery(p.RawQuery)
	if strings.Contains(p.Fragment, "=") {
		p.RawFragment = maskQuery(p.EscapedFragment())
		p.Fragment, _ = url.PathUnescape(p.RawFragment)
	}
	if !changed {
		return u, nil
	}
	return strings.ReplaceAll(p.String(), url.QueryEscape(Mask), Mask), secrets
}

// Args returns a copy of a command line with secret values masked: the
// value after a secret flag ("--token X", "--api-key=X"), a secret
// NAME=VALUE assignment ("API_KEY=X", as given to env), a secret header
// given as one argument ("Authorization: Bearer X", as mcp-remote takes
// it) and secrets in URLs. Single-letter flags ("-p") are never judged: their meaning
// depends on the program.
func Args(args []string) []string {
	out, _ := scanArgs(args)
	return out
}

// ArgSecrets returns the secret values of a command line that Args masks.
func ArgSecrets(args []string) []string {
	_, secrets := scanArgs(args)
	return secrets
}

func scanArgs(args []string) ([]string, []string) {
	out := make([]string, len(args))
	var secrets []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		out[i] = a
		name := strings.TrimLeft(a, "-")
		dashes := len(a) - len(name)
		if name, val, ok := strings.Cut(name, "="); ok {
			if val != "" && flagName(name, dashes) {
				out[i] = a[:len(a)-len(val)] + Mask
				secrets = append(secrets, val)
			} else if s := URLSecrets(val); len(s) > 0 {
				out[i] = a[:len(a)-len(val)] + URL(val)
				secrets = append(secrets, s...)
			}
			continue
		}
		if k, v, ok := strings.Cut(a, ":"); ok && dashes == 0 && v != "" && !strings.ContainsAny(k, " /") && Name(k) {
			out[i] = k + ": " + Mask // a header given as an argument: "Authorization: Bearer …"
			v = strings.TrimSpace(v)
			secrets = append(secrets, v, v[strings.LastIndexByte(v, ' ')+1:]) // and without its scheme
			continue
		}
		if dashes > 0 && flagName(name, dashes) && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && args[i+1] != "" {
			i++
			out[i] = Mask
			secrets = append(secrets, args[i])
			continue
		}
		if s := URLSecrets(a); len(s) > 0 {
			out[i] = URL(a)
			secrets = append(secrets, s...)
		}
	}
	return out, secrets
}

// flagName reports whether a flag (or, with no dashes, an assignment)
// names a secret; one-letter flags and "--no-…" switches are never judged.
func flagName(name string, dashes int) bool {
	if dashes > 2 || (dashes > 0 && len(name) < 2) {
		return false
	}
	if dashes > 0 && strings.HasPrefix(strings.ToLower(name), "no-") {
		return false // a switch that turns something off: "--no-auth"
	}
	return Name(name)
}
