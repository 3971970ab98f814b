package oauth

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// HeaderDPoP carries a DPoP proof; HeaderDPoPNonce a server's nonce
// (RFC 9449).
const (
	HeaderDPoP      = "DPoP"
	HeaderDPoPNonce = "DPoP-Nonce"
)

// dpop is an Authorizer's proof-of-possession key (RFC 9449, SEP-1932):
// when a sign-in uses DPoP (see useDPoP), every token request carries a
// proof signed with it, the token is bound to it, and every request to the
// MCP server presents the token with the DPoP scheme and a fresh proof. The key
// lives in memory only: after a restart a bound token is refused and the
// client signs in again. nonces holds the last DPoP-Nonce of each origin.
type dpop struct {
	mu     sync.Mutex
	key    *ecdsa.PrivateKey
	nonces map[string]string
}

// useDPoP decides whether the tokens of a sign-in are DPoP-bound: the
// authorization server accepts our proofs (ES256) and the resource server
// asked for DPoP, in its challenge's scheme or its metadata. A resource
// server that only speaks Bearer gets Bearer tokens, whatever the
// authorization server can do.
func useDPoP(ch Challenge, d *discovered) bool {
	if !slices.Contains(d.meta.DPoPSigningAlgValuesSupported, "ES256") {
		return false
	}
	return ch.DPoP || d.prm != nil && (d.prm.DPoPBoundAccessTokensRequired || len(d.prm.DPoPSigningAlgValuesSupported) > 0)
}

func (d *dpop) signer() (*ecdsa.PrivateKey, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.key == nil {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return nil, fmt.Errorf("oauth: DPoP key: %w", err)
		}
		d.key = key
	}
	return d.key, nil
}

// reset forgets the key and the nonces (Clear): tokens bound to the old
// key are gone with it, and the next proof is signed with a new key.
func (d *dpop) reset() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.key, d.nonces = nil, nil
}

// origin is the nonce scope of u: scheme and host.
func origin(u *url.URL) string { return u.Scheme + "://" + u.Host }

func (d *dpop) nonce(u *url.URL) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.nonces[origin(u)]
}

// noteNonce keeps the DPoP-Nonce a response from u carries; it reports
// whether there was a new one.
func (d *dpop) noteNonce(u *url.URL, h http.Header) bool {
	n := h.Get(HeaderDPoPNonce)
	if n == "" {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.nonces == nil {
		d.nonces = map[string]string{}
	}
	if d.nonces[origin(u)] == n {
		return false
	}
	d.nonces[origin(u)] = n
	return true
}

// proof signs a DPoP proof for a request (RFC 9449 §4.2): a fresh jti, the
// method and the URL without query and fragment, the origin's nonce when
// one is known, and for a resource request (accessToken set) the token's
// hash.
func (d *dpop) proof(method string, u *url.URL, accessToken string, now time.Time) (string, error) {
	key, err := d.signer()
	if err != nil {
		return "", err
	}
	jti := make([]byte, 16)
	if _, err := rand.Read(jti); err != nil {
		return "", fmt.Errorf("oauth: DPoP proof: %w", err)
	}
	htu := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath}
	claims := jwt.MapClaims{
		"jti": base64.RawURLEncoding.EncodeToString(jti),
		"htm": method,
		"htu": htu.String(),
		"iat": now.Unix(),
	}
	if n := d.nonce(u); n != "" {
		claims["nonce"] = n
	}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		claims["ath"] = base64.RawURLEncoding.EncodeToString(sum[:])
	}
	pub, err := key.PublicKey.Bytes() // 0x04 || X || Y, 32 bytes each
	if err != nil {
		return "", fmt.Errorf("oauth: DPoP key: %w", err)
	}
	t := jwt.NewWithClaims(jwt.SigningMethodES256, claims)
	t.Header["typ"] = "dpop+jwt"
	t.Header["jwk"] = map[string]string{
		"kty": "EC",
		"crv": "P-256",
		"x":   base64.RawURLEncoding.EncodeToString(pub[1:33]),
		"y":   base64.RawURLEncoding.EncodeToString(pub[33:]),
	}
	s, err := t.SignedString(key)
	if err != nil {
		return "", fmt.Errorf("oauth: DPoP proof: %w", err)
	}
	return s, nil
}

// dpopTransport adds a DPoP proof to each token request and, when the
// authorization server answers with a new DPoP-Nonce (use_dpop_nonce,
// RFC 9449 §8), sends the request once more with it.
type dpopTransport struct {
	base http.RoundTripper
	d    *dpop
	now  func() time.Time
}

// RoundTrip sends req with a proof.
func (t *dpopTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
	}
	send := func() (*http.Response, error) {
		r := req.Clone(req.Context())
		r.Body = io.NopCloser(bytes.NewReader(body))
		p, err := t.d.proof(r.Method, r.URL, "", t.now())
		if err != nil {
			return nil, err
		}
		r.Header.Set(HeaderDPoP, p)
		return t.base.RoundTrip(r)
	}
	resp, err := send()
	if err != nil {
		return nil, err
	}
	if (resp.StatusCode == http.StatusBadRequest || resp.StatusCode == http.StatusUnauthorized) && t.d.noteNonce(req.URL, resp.Header) {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return send()
	}
	t.d.noteNonce(req.URL, resp.Header)
	return resp, nil
}

// tokenClient is the HTTP client for requests to the token endpoint: with
// DPoP proofs when on.
func (a *Authorizer) tokenClient(on bool) *http.Client {
	if !on {
		return a.hc
	}
	c := *a.hc
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = &dpopTransport{base: base, d: &a.dpop, now: a.now}
	return &c
}

// prepareDPoP presents a DPoP-bound token on req.
func (a *Authorizer) prepareDPoP(req *http.Request, tok string) error {
	p, err := a.dpop.proof(req.Method, req.URL, tok, a.now())
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "DPoP "+tok)
	req.Header.Set(HeaderDPoP, p)
	return nil
}
