package oauth

import (
	"errors"
	"net/http"
	"strings"

	"github.com/spyglass-mcp/spyglass/core/wire"
)

// Challenge is what an HTTP 401/403 answer tells the client about
// authorization: the Bearer parameters of WWW-Authenticate (RFC 6750 §3,
// RFC 9728 §5.1).
type Challenge struct {
	Status           int    // 401 or 403 (0 when unknown)
	Error            string // error, e.g. invalid_token, insufficient_scope
	Description      string // error_description
	Scope            string // scope (space separated)
	ResourceMetadata string // resource_metadata URL
	// Bearer is set when the answer carried a Bearer (or DPoP) challenge at all: a
	// refusal without one comes from something that is not an OAuth
	// resource server (a proxy, a firewall).
	Bearer bool
	// DPoP is set when that challenge used the DPoP scheme: the resource
	// server wants DPoP-bound tokens (RFC 9449 §7.1).
	DPoP bool
}

// InsufficientScope reports whether the challenge asks for more scope.
func (c Challenge) InsufficientScope() bool {
	return c.Error == "insufficient_scope"
}

// ChallengeFromError extracts the Challenge from a *wire.HTTPError that
// matches wire.ErrUnauthorized (a 401 or 403 answer).
func ChallengeFromError(err error) (Challenge, bool) {
	var he *wire.HTTPError
	if !errors.As(err, &he) || !errors.Is(err, wire.ErrUnauthorized) {
		return Challenge{}, false
	}
	return ParseChallenge(he.Status, he.WWWAuthenticate()), true
}

// ChallengeFromResponse extracts the Challenge of an HTTP response.
func ChallengeFromResponse(resp *http.Response) Challenge {
	return ParseChallenge(resp.StatusCode, resp.Header.Values("WWW-Authenticate"))
}

// ParseChallenge reads the Bearer (or DPoP, RFC 9449 §7.1) challenge
// among the WWW-Authenticate header values, the first one found. Other
// schemes are ignored; parameter names are case-insensitive; quoted values
// may contain commas and escaped quotes.
func ParseChallenge(status int, values []string) Challenge {
	c := Challenge{Status: status}
	for _, v := range values {
		for _, ch := range splitChallenges(v) {
			if !strings.EqualFold(ch.scheme, "Bearer") && !strings.EqualFold(ch.scheme, "DPoP") {
				continue
			}
			c.Bearer = true
			c.DPoP = strings.EqualFold(ch.scheme, "DPoP")
			for k, val := range ch.params {
				switch k {
				case "error":
					c.Error = val
				case "error_description":
					c.Description = val
				case "scope":
					c.Scope = val
				case "resource_metadata":
					c.ResourceMetadata = val
				}
			}
			return c
		}
	}
	return c
}

type authChallenge struct {
	scheme string
	params map[string]string
}

// splitChallenges parses one WWW-Authenticate value (RFC 9110 §11.6.1),
// which may hold several challenges.
func splitChallenges(s string) []authChallenge {
	var out []authChallenge
	var cur *authChallenge
	i := 0
	for i < len(s) {
		for i < len(s) && (s[i] == ' ' || s[i] == ',' || s[i] == '\t') {
			i++
		}
		if i >= len(s) {
			break
		}
		start := i
		for i < len(s) && s[i] != ' ' && s[i] != ',' && s[i] != '=' && s[i] != '\t' {
			i++
		}
		tok := s[start:i]
		j := i
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j < len(s) && s[j] == '=' && cur != nil {
			// auth-param (token68 values are not used by Bearer)
			j++
			for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
				j++
			}
			var val string
			if j < len(s) && s[j] == '"' {
				j++
				var b strings.Builder
				for j < len(s) && s[j] != '"' {
					if s[j] == '\\' && j+1 < len(s) {
						j++
					}
					b.WriteByte(s[j])
					j++
				}
				j++ // closing quote
				val = b.String()
			} else {
				vs := j
				for j < len(s) && s[j] != ',' && s[j] != ' ' {
					j++
				}
				val = s[vs:j]
			}
			cur.params[strings.ToLower(tok)] = val
			i = j
			continue
		}
		out = append(out, authChallenge{scheme: tok, params: map[string]string{}})
		cur = &out[len(out)-1]
	}
	return out
}
