package wire

import (
	"bytes"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/redact"
)

// Mask is what a secret is replaced with (redact.Mask).
const Mask = redact.Mask

// minSecret is the shortest registered secret that is masked: shorter
// strings would mask innocent text everywhere.
const minSecret = 4

// Redactor masks secrets in events before they are stored: the values of
// secret HTTP headers (by redact.Name: Authorization, Cookie, X-Api-Key,
// anything naming a token, key, password...), bearer tokens anywhere, OAuth
// token fields of JSON payloads, secret URL query parameters (redact.URL),
// and every string registered with Add. The zero value is ready to use; a
// Redactor is safe for concurrent use.
type Redactor struct {
	mu      sync.Mutex               // serialises Add
	secrets atomic.Pointer[[]secret] // longest first; never changed once stored
}

// secret is a registered secret and its forms as text and inside JSON.
type secret struct{ plain, escaped string }

// NewRedactor returns a Redactor that also masks the given secrets.
func NewRedactor(secrets ...string) *Redactor {
	r := &Redactor{}
	r.Add(secrets...)
	return r
}

// Add registers secret strings (env values the user marked secret,
// client secrets, tokens) to be masked wherever they appear. Strings
// shorter than 4 bytes are ignored. Readers never see the list change
// under them: Add stores a new, sorted copy.
func (r *Redactor) Add(secrets ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	list := r.list()
	next := slices.Clone(list)
	for _, s := range secrets {
		if len(s) < minSecret || slices.ContainsFunc(next, func(h secret) bool { return h.plain == s }) {
			continue
		}
		next = append(next, secret{plain: s, escaped: jsonEscaped(s)})
	}
	if len(next) == len(list) {
		return
	}
	slices.SortStableFunc(next, func(a, b secret) int { return len(b.plain) - len(a.plain) })
	r.secrets.Store(&next)
}

func (r *Redactor) list() []secret {
	if r == nil {
		return nil
	}
	if p := r.secrets.Load(); p != nil {
		return *p
	}
	return nil
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

// Header returns a copy of h with secret values masked. For
// Authorization-style values the scheme stays visible ("Bearer ****").
func (r *Redactor) Header(h http.Header) http.Header {
	if h == nil {
		return nil
	}
	out := make(http.Header, len(h))
	for k, vs := range h {
		masked := make([]string, len(vs))
		secret := redact.Name(k)
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
	out, masked := r.maskBytes(raw)
	if !masked {
		return raw
	}
	if json.Valid(raw) && !json.Valid(out) {
		return json.RawMessage(`"` + Mask + `"`)
	}
	return out
}

// maskBytes is String on bytes: it copies b only when something in it is
// masked (a large message that merely holds a hint word costs nothing).
func (r *Redactor) maskBytes(b []byte) ([]byte, bool) {
	masked := false
	if re := bearerRE(); re.Match(b) {
		b, masked = re.ReplaceAll(b, []byte("${1}${2}"+Mask)), true
	}
	if bytes.IndexByte(b, '"') >= 0 && jsonFieldRE().Match(b) {
		b, masked = jsonFieldRE().ReplaceAll(b, []byte("${1}"+Mask+"${3}")), true
	}
	for _, sec := range r.list() {
		for _, v := range []string{sec.plain, sec.escaped} {
			if bytes.Contains(b, []byte(v)) {
				b, masked = bytes.ReplaceAll(b, []byte(v), []byte(Mask)), true
			}
		}
	}
	return b, masked
}

// jsonMayHold is a cheap test that skips the regular expressions for the
// common message without any secret.
func (r *Redactor) jsonMayHold(raw []byte) bool {
	if bytes.Contains(raw, []byte("earer")) || bytes.Contains(raw, []byte("EARER")) {
		return true
	}
	for _, h := range fieldHints {
		if bytes.Contains(raw, []byte(h)) {
			return true
		}
	}
	for _, sec := range r.list() {
		if bytes.Contains(raw, []byte(sec.plain)) || bytes.Contains(raw, []byte(sec.escaped)) {
			return true
		}
	}
	return false
}

// fieldHints are the substrings without which a text holds no field that
// jsonFieldRE masks.
var fieldHints = []string{"_token", "secret", "code_verifier", "password", "api_key", "apiKey"}

func hasFieldHint(s string) bool {
	return slices.ContainsFunc(fieldHints, func(h string) bool { return strings.Contains(s, h) })
}

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

// URL masks the password and secret query parameters of u (redact.URL),
// then the bearer tokens and registered secrets left.
func (r *Redactor) URL(u string) string {
	return r.String(redact.URL(u))
}
