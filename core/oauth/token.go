package oauth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Token endpoint client authentication methods.
const (
	AuthNone              = "none"
	AuthClientSecretBasic = "client_secret_basic"
	AuthClientSecretPost  = "client_secret_post"
	AuthPrivateKeyJWT     = "private_key_jwt"
)

// Token is a stored grant. It is secret: never log or record it.
type Token struct {
	AccessToken  string    `json:"access_token"`
	TokenType    string    `json:"token_type,omitempty"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
	// Scope is what the server granted, or what was requested when the
	// token response named no scope (RFC 6749 §5.1).
	Scope string `json:"scope,omitempty"`
	// Issuer binds the grant to the authorization server that minted it;
	// revocation is only sent to that issuer's endpoint.
	Issuer   string `json:"issuer,omitempty"`
	Resource string `json:"resource,omitempty"`
	// IDToken is the OpenID Connect ID token of the response, when any
	// (kept only for the enterprise IdP sign-in).
	IDToken string `json:"id_token,omitempty"`
}

// String hides the secrets, so that a Token printed by mistake leaks
// nothing.
func (t Token) String() string {
	return fmt.Sprintf("oauth.Token{issuer: %q, scope: %q, expiry: %s, refresh: %t}", t.Issuer, t.Scope, t.Expiry.Format(time.RFC3339), t.RefreshToken != "")
}

// GoString hides the secrets from %#v too.
func (t Token) GoString() string { return t.String() }

// expired reports whether the access token is expired or about to be.
func (t *Token) expired(now time.Time) bool {
	return !t.Expiry.IsZero() && now.Add(30*time.Second).After(t.Expiry)
}

// Client is the OAuth client the Authorizer uses with one authorization
// server. ClientSecret is secret.
type Client struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret,omitempty"`
	AuthMethod   string `json:"token_endpoint_auth_method,omitempty"`
	RedirectURI  string `json:"redirect_uri,omitempty"`
	// Issuer is the authorization server the client belongs to.
	Issuer string `json:"issuer,omitempty"`
	// Kind is how it was obtained: "preregistered", "cimd" or "dynamic".
	Kind string `json:"kind,omitempty"`
	// PrivateKeyPEM and SigningAlg sign private_key_jwt assertions.
	PrivateKeyPEM string `json:"-"`
	SigningAlg    string `json:"-"`
}

// String hides the secret.
func (c Client) String() string {
	return fmt.Sprintf("oauth.Client{id: %q, method: %q, kind: %q}", c.ClientID, c.AuthMethod, c.Kind)
}

// GoString hides the secret from %#v too.
func (c Client) GoString() string { return c.String() }

// tokenResponse is RFC 6749 §5.1.
type tokenResponse struct {
	AccessToken  string          `json:"access_token"`
	TokenType    string          `json:"token_type"`
	RefreshToken string          `json:"refresh_token"`
	ExpiresIn    json.RawMessage `json:"expires_in"`
	Scope        string          `json:"scope"`
	IDToken      string          `json:"id_token"`
	IssuedType   string          `json:"issued_token_type"`
}

// postForm sends form to endpoint with the client's authentication and
// decodes a 2xx JSON answer into out (when out is not nil).
func postForm(ctx context.Context, hc *http.Client, kind, endpoint string, form url.Values, cl *Client, audience string, out any) error {
	if cl != nil {
		if err := authenticate(form, cl, audience); err != nil {
			return err
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return fmt.Errorf("oauth: %s request: %w", kind, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if cl != nil && cl.AuthMethod == AuthClientSecretBasic {
		// RFC 6749 §2.3.1: both parts form-encoded before Basic.
		req.SetBasicAuth(url.QueryEscape(cl.ClientID), url.QueryEscape(cl.ClientSecret))
	}
	return doJSON(hc, req, kind, out)
}

// doJSON runs req and decodes a 2xx JSON answer into out.
func doJSON(hc *http.Client, req *http.Request, kind string, out any) error {
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("oauth: %s request: %w", kind, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return fmt.Errorf("oauth: %s response: %w", kind, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		e := &EndpointError{Endpoint: kind, URL: req.URL.Redacted(), Status: resp.StatusCode}
		var eb struct {
			Error       string `json:"error"`
			Description string `json:"error_description"`
		}
		if json.Unmarshal(body, &eb) == nil {
			e.Code, e.Description = eb.Error, eb.Description
		}
		return e
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("oauth: %s response is not JSON: %w", kind, err)
	}
	return nil
}

// authenticate adds the client authentication that goes into the form.
func authenticate(form url.Values, cl *Client, audience string) error {
	switch cl.AuthMethod {
	case AuthClientSecretBasic:
		// header, set by postForm
	case AuthClientSecretPost:
		form.Set("client_id", cl.ClientID)
		form.Set("client_secret", cl.ClientSecret)
	case AuthPrivateKeyJWT:
		a, err := clientAssertion(cl, audience, time.Now())
		if err != nil {
			return err
		}
		form.Set("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
		form.Set("client_assertion", a)
	default: // none
		form.Set("client_id", cl.ClientID)
	}
	return nil
}

// exchange runs a token request and turns the answer into a Token.
func exchange(ctx context.Context, hc *http.Client, endpoint string, form url.Values, cl *Client, audience string, now time.Time) (*Token, error) {
	var tr tokenResponse
	if err := postForm(ctx, hc, "token", endpoint, form, cl, audience, &tr); err != nil {
		return nil, err
	}
	if tr.AccessToken == "" {
		return nil, fmt.Errorf("oauth: token response has no access_token: %w", &EndpointError{Endpoint: "token", URL: endpoint, Status: 200, Code: "invalid_response"})
	}
	if tr.TokenType != "" && !strings.EqualFold(tr.TokenType, "bearer") {
		return nil, fmt.Errorf("oauth: token type %q is not Bearer: %w", tr.TokenType, &EndpointError{Endpoint: "token", URL: endpoint, Status: 200, Code: "unsupported_token_type"})
	}
	t := &Token{AccessToken: tr.AccessToken, TokenType: "Bearer", RefreshToken: tr.RefreshToken, Scope: tr.Scope, IDToken: tr.IDToken}
	if secs := parseExpiresIn(tr.ExpiresIn); secs > 0 {
		t.Expiry = now.Add(time.Duration(secs) * time.Second)
	}
	return t, nil
}

// parseExpiresIn accepts a number or a numeric string (seen in the wild).
func parseExpiresIn(raw json.RawMessage) int64 {
	if len(raw) == 0 {
		return 0
	}
	var n json.Number
	s := strings.Trim(string(raw), `"`)
	n = json.Number(s)
	if v, err := n.Int64(); err == nil {
		return v
	}
	if f, err := n.Float64(); err == nil {
		return int64(f)
	}
	return 0
}

// clientAssertion signs an RFC 7523 client authentication JWT: iss and sub
// are the client id, aud the authorization server's issuer.
func clientAssertion(cl *Client, audience string, now time.Time) (string, error) {
	block, _ := pem.Decode([]byte(cl.PrivateKeyPEM))
	if block == nil {
		return "", errors.New("oauth: private key is not PEM")
	}
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		if k, err2 := x509.ParseECPrivateKey(block.Bytes); err2 == nil {
			key = k
		} else if k, err3 := x509.ParsePKCS1PrivateKey(block.Bytes); err3 == nil {
			key = k
		} else {
			return "", fmt.Errorf("oauth: private key: %w", err)
		}
	}
	alg := cl.SigningAlg
	if alg == "" {
		switch key.(type) {
		case *ecdsa.PrivateKey:
			alg = "ES256"
		default:
			alg = "RS256"
		}
	}
	jti := make([]byte, 16)
	_, _ = rand.Read(jti)
	header, _ := json.Marshal(map[string]string{"alg": alg, "typ": "JWT"})
	claims, _ := json.Marshal(map[string]any{
		"iss": cl.ClientID, "sub": cl.ClientID, "aud": audience,
		"iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(),
		"jti": base64.RawURLEncoding.EncodeToString(jti),
	})
	input := base64.RawURLEncoding.EncodeToString(header) + "." + base64.RawURLEncoding.EncodeToString(claims)
	sum := sha256.Sum256([]byte(input))
	var sig []byte
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		if alg != "ES256" {
			return "", fmt.Errorf("oauth: signing algorithm %s does not fit an EC key", alg)
		}
		r, s, err := ecdsa.Sign(rand.Reader, k, sum[:])
		if err != nil {
			return "", fmt.Errorf("oauth: sign client assertion: %w", err)
		}
		sig = append(pad32(r), pad32(s)...)
	case *rsa.PrivateKey:
		if alg != "RS256" {
			return "", fmt.Errorf("oauth: signing algorithm %s does not fit an RSA key", alg)
		}
		sig, err = rsa.SignPKCS1v15(rand.Reader, k, crypto.SHA256, sum[:])
		if err != nil {
			return "", fmt.Errorf("oauth: sign client assertion: %w", err)
		}
	default:
		return "", fmt.Errorf("oauth: unsupported private key type %T", key)
	}
	return input + "." + base64.RawURLEncoding.EncodeToString(sig), nil
}

func pad32(n *big.Int) []byte {
	b := n.Bytes()
	out := make([]byte, 32)
	copy(out[32-len(b):], b)
	return out
}

// registrationRequest is the RFC 7591 client metadata we send.
type registrationRequest struct {
	ClientName              string   `json:"client_name"`
	RedirectURIs            []string `json:"redirect_uris"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	ApplicationType         string   `json:"application_type"`
	ClientURI               string   `json:"client_uri,omitempty"`
	SoftwareID              string   `json:"software_id,omitempty"`
	SoftwareVersion         string   `json:"software_version,omitempty"`
}

// register runs dynamic client registration (RFC 7591).
func register(ctx context.Context, hc *http.Client, endpoint string, reqBody registrationRequest) (*Client, error) {
	b, _ := json.Marshal(reqBody)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(string(b)))
	if err != nil {
		return nil, fmt.Errorf("oauth: registration request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	var resp struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
		AuthMethod   string `json:"token_endpoint_auth_method"`
	}
	if err := doJSON(hc, req, "registration", &resp); err != nil {
		return nil, err
	}
	if resp.ClientID == "" {
		return nil, fmt.Errorf("oauth: registration response has no client_id: %w", &EndpointError{Endpoint: "registration", URL: endpoint, Status: 200, Code: "invalid_response"})
	}
	cl := &Client{ClientID: resp.ClientID, ClientSecret: resp.ClientSecret, AuthMethod: resp.AuthMethod, Kind: "dynamic"}
	if cl.AuthMethod == "" {
		if cl.ClientSecret != "" {
			cl.AuthMethod = AuthClientSecretBasic
		} else {
			cl.AuthMethod = AuthNone
		}
	}
	return cl, nil
}
