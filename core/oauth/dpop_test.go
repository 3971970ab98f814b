package oauth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/secrets"
)

// verifyProof checks a DPoP proof the way a server does (RFC 9449 §4.3):
// typ, ES256 signed by the embedded public key; it returns the claims.
func verifyProof(t *testing.T, proof string) jwt.MapClaims {
	t.Helper()
	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(proof, claims, func(tok *jwt.Token) (any, error) {
		if tok.Header["typ"] != "dpop+jwt" {
			t.Errorf("typ %v", tok.Header["typ"])
		}
		jwk, _ := tok.Header["jwk"].(map[string]any)
		x, _ := base64.RawURLEncoding.DecodeString(jwk["x"].(string))
		y, _ := base64.RawURLEncoding.DecodeString(jwk["y"].(string))
		if jwk["kty"] != "EC" || jwk["crv"] != "P-256" || jwk["d"] != nil {
			t.Errorf("jwk %v", jwk)
		}
		return ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, x...), y...))
	}, jwt.WithValidMethods([]string{"ES256"}))
	if err != nil {
		t.Fatalf("proof does not verify: %v", err)
	}
	return claims
}

func TestDPoPProof(t *testing.T) {
	var d dpop
	u, _ := url.Parse("https://mcp.example/mcp?x=1#f")
	now := time.Unix(1_800_000_000, 0)
	p1, err := d.proof("POST", u, "", now)
	if err != nil {
		t.Fatal(err)
	}
	c := verifyProof(t, p1)
	if c["htm"] != "POST" || c["htu"] != "https://mcp.example/mcp" || c["iat"] != float64(now.Unix()) || c["ath"] != nil || c["nonce"] != nil {
		t.Errorf("claims %v", c)
	}
	h := http.Header{}
	h.Set(HeaderDPoPNonce, "n1")
	d.noteNonce(u, h)
	p2, err := d.proof("POST", u, "tok", now)
	if err != nil {
		t.Fatal(err)
	}
	c2 := verifyProof(t, p2)
	sum := sha256.Sum256([]byte("tok"))
	if c2["nonce"] != "n1" || c2["ath"] != base64.RawURLEncoding.EncodeToString(sum[:]) || c2["jti"] == c["jti"] {
		t.Errorf("claims %v (first jti %v)", c2, c["jti"])
	}
	other, _ := url.Parse("https://as.example/token")
	if p, _ := d.proof("POST", other, "", now); verifyProof(t, p)["nonce"] != nil {
		t.Error("a nonce of one origin was sent to another")
	}
}

// TestDPoPTransportNonce: a token endpoint that answers use_dpop_nonce
// gets the same request again, body included, with its nonce; a second
// refusal with the same nonce is not retried.
func TestDPoPTransportNonce(t *testing.T) {
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		claims := verifyProof(t, r.Header.Get(HeaderDPoP))
		nonce, _ := claims["nonce"].(string)
		seen = append(seen, nonce+"|"+string(body))
		w.Header().Set(HeaderDPoPNonce, "n1")
		if nonce != "n1" || strings.Contains(string(body), "refuse") {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":"use_dpop_nonce"}`)
			return
		}
		io.WriteString(w, `{"access_token":"a","token_type":"DPoP"}`)
	}))
	defer srv.Close()
	var d dpop
	c := &http.Client{Transport: &dpopTransport{base: http.DefaultTransport, d: &d, now: time.Now}}
	resp, err := c.Post(srv.URL+"/token", "application/x-www-form-urlencoded", strings.NewReader("grant_type=x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || strings.Join(seen, ",") != "|grant_type=x,n1|grant_type=x" {
		t.Fatalf("status %d, requests %q", resp.StatusCode, seen)
	}
	seen = nil
	resp, err = c.Post(srv.URL+"/token", "application/x-www-form-urlencoded", strings.NewReader("refuse"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || len(seen) != 1 {
		t.Fatalf("status %d, requests %q", resp.StatusCode, seen)
	}
}

func TestUseDPoP(t *testing.T) {
	as := ServerMetadata{DPoPSigningAlgValuesSupported: []string{"RS256", "ES256"}}
	for _, tc := range []struct {
		name string
		ch   Challenge
		d    discovered
		want bool
	}{
		{"DPoP challenge", Challenge{DPoP: true}, discovered{meta: as}, true},
		{"resource metadata", Challenge{}, discovered{meta: as, prm: &ResourceMetadata{DPoPBoundAccessTokensRequired: true}}, true},
		{"Bearer-only resource", Challenge{Bearer: true}, discovered{meta: as, prm: &ResourceMetadata{}}, false},
		{"no ES256 at the AS", Challenge{DPoP: true}, discovered{meta: ServerMetadata{DPoPSigningAlgValuesSupported: []string{"RS256"}}}, false},
	} {
		if got := useDPoP(tc.ch, &tc.d); got != tc.want {
			t.Errorf("%s: %v", tc.name, got)
		}
	}
	if c := ParseChallenge(401, []string{`DPoP error="use_dpop_nonce", resource_metadata="https://r/x"`}); !c.DPoP || c.Error != "use_dpop_nonce" || c.ResourceMetadata != "https://r/x" {
		t.Errorf("DPoP challenge parsed as %+v", c)
	}
}

// TestClearForgetsDPoPKey: Clear drops the proof key and the nonces, so
// the next proof is signed with a new key.
func TestClearForgetsDPoPKey(t *testing.T) {
	a := New("s", "https://mcp.example/mcp", catalog.OAuth{}, secrets.NewMemory(), nil)
	k1, err := a.dpop.signer()
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse("https://as.example/token")
	a.dpop.noteNonce(u, http.Header{HeaderDPoPNonce: {"n1"}})
	if k, _ := a.dpop.signer(); k != k1 {
		t.Fatal("the key changed without a Clear")
	}
	if _, err := a.Clear(t.Context(), true); err != nil {
		t.Fatal(err)
	}
	k2, err := a.dpop.signer()
	if err != nil {
		t.Fatal(err)
	}
	if k2.Equal(k1) {
		t.Error("Clear kept the DPoP key")
	}
	if n := a.dpop.nonce(u); n != "" {
		t.Errorf("Clear kept the nonce %q", n)
	}
}
