package wire

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// Mask is what a secret is replaced with.
const Mask = "****"

// minSecret is the shortest registered secret that is masked: shorter
// strings would mask innocent text everywhere.
const minSecret = 4

// Redactor masks secrets in events before they are stored: the values of
// secret HTTP headers (Authorization, Proxy-Authorization, Cookie,
// Set-Cookie, X-Api-Key and any header whose name mentions a token,
// secret, key, password or credential), bearer tokens anywhere, OAuth
// token fields of JSON payloads, secret URL query parameters, and every
// string registered with Add. The zero value is ready to use; a Redactor
// is safe for concurrent use.
type Redactor struct {
	mu      sync.RWMutex
	secrets []secret // longest first
}

// secret is a registered secret and its forms as text and inside JSON.
type secret struct {
	plain, escaped string
	plainB, escB   []byte
}

// NewRedactor returns a Redactor that also masks the given secrets.
func NewRedactor(secrets ...string) *Redactor {
	r := &Redactor{}
	r.Add(secrets...)
	return r
}

// Add registers secret strings (env values the user marked secret,
// client secrets, tokens) to be masked wherever they appear. Strings
// shorter than 4 bytes are ignored.
func (r *Redactor) Add(secrets ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range secrets {
		if len(s) < minSecret {
			continue
		}
		dup := false
		for _, have := range r.secrets {
			if have.plain == s {
				dup = true
				break
			}
		}
		if !dup {
			esc := jsonEscaped(s)
			r.secrets = append(r.secrets, secret{plain: s, escaped: esc, plainB: []byte(s), escB: []byte(esc)})
		}
	}
	sort.Slice(r.secrets, func(i, j int) bool { return len(r.secrets[i].plain) > len(r.secrets[j].plain) })
}

func (r *Redactor) list() []secret {
	if r == nil {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.secrets
}

// Redact masks the secrets of e in place: Text, Raw (kept valid JSON),
// and the HTTP URL and headers. Its signature fits events.Options.Redact.
func (r *Redactor) Redact(e *events.Event) {
	if e == nil {
		return
	}
	e.Text = r.String(e.Text)
	if len(e.Raw) > 0 {
		e.Raw = r.JSON(e.Raw)
	}
	if e.HTTP != nil {
		h := *e.HTTP
		h.URL = r.URL(h.URL)
		h.ReqHeader = r.Header(h.ReqHeader)
		h.RespHeader = r.Header(h.RespHeader)
		h.Err = r.String(h.Err)
		e.HTTP = &h
	}
}

// secretHeaders are masked whatever their value.
var secretHeaders = map[string]bool{
	"Authorization":       true,
	"Proxy-Authorization": true,
	"Cookie":              true,
	"Set-Cookie":          true,
	"X-Api-Key":           true,
	"Api-Key":             true,
}

// secretNameParts mark a header (or query parameter) name as secret.
var secretNameParts = []string{"token", "secret", "key", "password", "passwd", "credential", "auth", "session-token", "signature"}

// SecretHeader reports whether the header name carries a secret value.
func SecretHeader(name string) bool {
	canon := http.CanonicalHeaderKey(name)
	if secretHeaders[canon] {
		return true
	}
	lower := strings.ToLower(name)
	if lower == "www-authenticate" || lower == "mcp-session-id" {
		// challenges and session ids are shown: they are not credentials.
		return false
	}
	for _, p := range secretNameParts {
		if strings.Contains(lower, p) {
			return true
		}
	}
	return false
}

// Header returns a copy of h with secret values masked. For
// Authorization-style values the scheme stays visible ("Bearer ****").
func (r *Redactor) Header(h http.Header) http.Header {
	if h == nil {
		return nil
	}
	out := make(http.Header, len(h))
	for k, vs := range h {
		masked := make([]string, len(vs))
		secret := SecretHeader(k)
		for i, v := range vs {
			switch {
			case secret:
				masked[i] = maskCredential(v)
			case strings.EqualFold(k, "WWW-Authenticate"):
				masked[i] = r.secretsOnly(v) // a challenge: "Bearer realm=..." holds no token
			default:
				masked[i] = r.String(v)
			}
		}
		out[k] = masked
	}
	return out
}

// maskCredential masks a header value, keeping an auth scheme visible.
func maskCredential(v string) string {
	if v == "" {
		return v
	}
	if i := strings.IndexByte(v, ' '); i > 0 && i < 20 && !strings.ContainsAny(v[:i], "=;,") {
		return v[:i] + " " + Mask
	}
	return Mask
}

// The patterns are compiled on first use, not at package init: every
// process start (a one-shot --cli run too) would otherwise pay for them.
var (
	bearerRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(bearer)(\s+)[A-Za-z0-9\-._~+/]{6,}=*`)
	})
	// OAuth fields in JSON text: "access_token": "..." and friends.
	jsonFieldRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`("(?:access_token|refresh_token|id_token|client_secret|code_verifier|password|api_key|apiKey|secret)"\s*:\s*")((?:[^"\\]|\\.)*)(")`)
	})
)

// String masks bearer tokens, OAuth token fields and registered secrets
// in s.
func (r *Redactor) String(s string) string {
	if s == "" {
		return s
	}
	if containsFold(s, "bearer") {
		s = bearerRE().ReplaceAllString(s, "${1}${2}"+Mask)
	}
	if strings.Contains(s, `"`) && hasFieldHint(s) {
		s = jsonFieldRE().ReplaceAllString(s, "${1}"+Mask+"${3}")
	}
	return r.secretsOnly(s)
}

// secretsOnly masks the registered secrets in s.
func (r *Redactor) secretsOnly(s string) string {
	for _, sec := range r.list() {
		if strings.Contains(s, sec.plain) {
			s = strings.ReplaceAll(s, sec.plain, Mask)
		}
		if sec.escaped != sec.plain && strings.Contains(s, sec.escaped) {
			s = strings.ReplaceAll(s, sec.escaped, Mask)
		}
	}
	return s
}

// JSON masks secrets in raw JSON, keeping it valid: when masking would
// break the JSON, the whole value is replaced by a masked string.
func (r *Redactor) JSON(raw json.RawMessage) json.RawMessage {
	if !r.jsonMayHold(raw) {
		return raw
	}
	out := json.RawMessage(r.String(string(raw)))
	if bytes.Equal(out, raw) {
		return raw
	}
	if json.Valid(raw) && !json.Valid(out) {
		return json.RawMessage(`"` + Mask + `"`)
	}
	return out
}

// jsonMayHold is a cheap test that skips the regular expressions for the
// common message without any secret.
func (r *Redactor) jsonMayHold(raw []byte) bool {
	for _, h := range jsonHints {
		if bytes.Contains(raw, h) {
			return true
		}
	}
	for _, sec := range r.list() {
		if bytes.Contains(raw, sec.plainB) || bytes.Contains(raw, sec.escB) {
			return true
		}
	}
	return false
}

func hasFieldHint(s string) bool {
	return strings.Contains(s, "_token") || strings.Contains(s, "secret") || strings.Contains(s, "code_verifier") ||
		strings.Contains(s, "password") || strings.Contains(s, "api_key") || strings.Contains(s, "apiKey")
}

// jsonHints are the substrings without which a payload holds nothing the
// patterns would mask.
var jsonHints = [][]byte{[]byte("earer"), []byte("EARER"), []byte("_token"), []byte("secret"), []byte("code_verifier"),
	[]byte("password"), []byte("api_key"), []byte("apiKey")}

// jsonEscaped returns s as it appears inside a JSON string.
func jsonEscaped(s string) string {
	b, err := json.Marshal(s)
	if err != nil || len(b) < 2 {
		return s
	}
	return string(b[1 : len(b)-1])
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), sub)
}

// URL masks secret query parameters (access_token, code, client_secret,
// anything named like a token, key or password) and user info in u.
func (r *Redactor) URL(u string) string {
	if u == "" {
		return u
	}
	p, err := url.Parse(u)
	if err != nil {
		return r.String(u)
	}
	changed := false
	if p.User != nil {
		if _, has := p.User.Password(); has {
			p.User = url.UserPassword(p.User.Username(), Mask)
			changed = true
		}
	}
	if p.RawQuery != "" {
		q := p.Query()
		for k, vs := range q {
			lk := strings.ToLower(k)
			if lk == "code" || lk == "state" || SecretHeader(lk) {
				for i := range vs {
					vs[i] = Mask
				}
				changed = true
			}
		}
		if changed {
			p.RawQuery = strings.ReplaceAll(q.Encode(), url.QueryEscape(Mask), Mask)
		}
	}
	out := u
	if changed {
		out = strings.ReplaceAll(p.String(), url.QueryEscape(Mask), Mask)
	}
	return r.String(out)
}
