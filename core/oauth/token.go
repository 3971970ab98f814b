package oauth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
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
	// Obtained is when the token was received: with Expiry it gives the
	// lifetime, which sets how early the token is refreshed.
	Obtained time.Time `json:"obtained,omitzero"`
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

// MaxExpiryMargin is how long before its expiry a token is refreshed at
// most; a token that lives less than ten times as long is refreshed when
// a tenth of its lifetime is left, so a short-lived token is not
// refreshed before every request.
const MaxExpiryMargin = 30 * time.Second

// expired reports whether the access token is expired or about to be.
func (t *Token) expired(now time.Time) bool {
	if t.Expiry.IsZero() {
		return false
	}
	margin := MaxExpiryMargin
	if !t.Obtained.IsZero() {
		margin = min(margin, t.Expiry.Sub(t.Obtained)/10)
	}
	return !now.Add(margin).Before(t.Expiry)
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

// authStyle maps the client's authentication method to the library's:
// the secret in a Basic header, or the credentials in the form (none and
// private_key_jwt send only client_id there).
func (c *Client) authStyle() oauth2.AuthStyle {
	if c.AuthMethod == AuthClientSecretBasic {
		return oauth2.AuthStyleInHeader
	}
	return oauth2.AuthStyleInParams
}

// secret is the client secret the library sends (none for the methods
// that do not use one).
func (c *Client) secret() string {
	if c.AuthMethod == AuthClientSecretBasic || c.AuthMethod == AuthClientSecretPost {
		return c.ClientSecret
	}
	return ""
}

// assertion returns the form parameters of private_key_jwt (RFC 7523
// §2.2), none for the other methods.
func (c *Client) assertion(audience string) (url.Values, error) {
	if c.AuthMethod != AuthPrivateKeyJWT {
		return nil, nil
	}
	a, err := clientAssertion(c, audience, time.Now())
	if err != nil {
		return nil, err
	}
	return url.Values{
		"client_assertion_type": {"urn:ietf:params:oauth:client-assertion-type:jwt-bearer"},
		"client_assertion":      {a},
	}, nil
}

// libraryContext makes the library send its requests with hc.
func libraryContext(ctx context.Context, hc *http.Client) context.Context {
	return context.WithValue(ctx, oauth2.HTTPClient, hc)
}

// redeemCode exchanges an authorization code (with its PKCE verifier and
// the resource indicator) at the token endpoint.
func redeemCode(ctx context.Context, hc *http.Client, endpoint string, cl *Client, audience, code, verifier, redirectURI, resource string, now time.Time) (*Token, error) {
	cfg := oauth2.Config{
		ClientID: cl.ClientID, ClientSecret: cl.secret(), RedirectURL: redirectURI,
		Endpoint: oauth2.Endpoint{TokenURL: endpoint, AuthStyle: cl.authStyle()},
	}
	opts := []oauth2.AuthCodeOption{oauth2.VerifierOption(verifier)}
	if resource != "" {
		opts = append(opts, oauth2.SetAuthURLParam("resource", resource))
	}
	extra, err := cl.assertion(audience)
	if err != nil {
		return nil, err
	}
	for k, v := range extra {
		opts = append(opts, oauth2.SetAuthURLParam(k, v[0]))
	}
	t, err := cfg.Exchange(libraryContext(ctx, hc), code, opts...)
	if err != nil {
		return nil, endpointError(err, endpoint)
	}
	return accessToken(t, endpoint, now)
}

// tokenRequest runs any other grant at the token endpoint: params holds
// grant_type and the grant's parameters (refresh_token, resource, scope,
// assertion, ...). It goes through the library's client credentials
// request, which lets grant_type be set.
func tokenRequest(ctx context.Context, hc *http.Client, endpoint string, cl *Client, audience string, params url.Values) (*oauth2.Token, error) {
	extra, err := cl.assertion(audience)
	if err != nil {
		return nil, err
	}
	maps.Copy(params, extra)
	cfg := clientcredentials.Config{
		ClientID: cl.ClientID, ClientSecret: cl.secret(), TokenURL: endpoint,
		AuthStyle: cl.authStyle(), EndpointParams: params,
	}
	t, err := cfg.Token(libraryContext(ctx, hc))
	if err != nil {
		return nil, endpointError(err, endpoint)
	}
	return t, nil
}

// grant is tokenRequest for a grant that yields an access token.
func grant(ctx context.Context, hc *http.Client, endpoint string, cl *Client, audience string, params url.Values, now time.Time) (*Token, error) {
	t, err := tokenRequest(ctx, hc, endpoint, cl, audience, params)
	if err != nil {
		return nil, err
	}
	return accessToken(t, endpoint, now)
}

// accessToken turns the library's token into ours: a Bearer token, or a
// DPoP-bound one (RFC 9449 §5), its lifetime measured from now.
func accessToken(t *oauth2.Token, endpoint string, now time.Time) (*Token, error) {
	typ := "Bearer"
	switch {
	case strings.EqualFold(t.TokenType, "dpop"):
		typ = "DPoP"
	case t.TokenType != "" && !strings.EqualFold(t.TokenType, "bearer"):
		return nil, fmt.Errorf("oauth: token type %q is neither Bearer nor DPoP: %w", t.TokenType, &EndpointError{Endpoint: "token", URL: endpoint, Status: 200, Code: "unsupported_token_type"})
	}
	out := &Token{AccessToken: t.AccessToken, TokenType: typ, RefreshToken: t.RefreshToken, Obtained: now}
	out.Scope, _ = t.Extra("scope").(string)
	out.IDToken, _ = t.Extra("id_token").(string)
	if !t.Expiry.IsZero() {
		out.Expiry = now.Add(time.Until(t.Expiry).Round(time.Second))
	}
	return out, nil
}

// endpointError turns the library's error answer into an EndpointError.
func endpointError(err error, endpoint string) error {
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) || re.Response == nil {
		return fmt.Errorf("oauth: token endpoint %s: %w", endpoint, err)
	}
	return &EndpointError{Endpoint: "token", URL: endpoint, Status: re.Response.StatusCode, Code: re.ErrorCode, Description: re.ErrorDescription}
}

// clientAssertion signs an RFC 7523 client authentication JWT: iss and sub
// are the client id, aud the authorization server's issuer. The algorithm
// is SigningAlg, or ES256/RS256 by key type.
func clientAssertion(cl *Client, audience string, now time.Time) (string, error) {
	var key any
	var err error
	alg := cl.SigningAlg
	if k, ecErr := jwt.ParseECPrivateKeyFromPEM([]byte(cl.PrivateKeyPEM)); ecErr == nil {
		key = k
		if alg == "" {
			alg = "ES256"
		}
	} else if key, err = jwt.ParseRSAPrivateKeyFromPEM([]byte(cl.PrivateKeyPEM)); err != nil {
		return "", fmt.Errorf("oauth: private key is neither an EC nor an RSA key in PEM: %w", err)
	} else if alg == "" {
		alg = "RS256"
	}
	method := jwt.GetSigningMethod(alg)
	if method == nil {
		return "", fmt.Errorf("oauth: unknown signing algorithm %q", alg)
	}
	jti := make([]byte, 16)
	_, _ = rand.Read(jti)
	s, err := jwt.NewWithClaims(method, jwt.MapClaims{
		"iss": cl.ClientID, "sub": cl.ClientID, "aud": audience,
		"iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(),
		"jti": base64.RawURLEncoding.EncodeToString(jti),
	}).SignedString(key)
	if err != nil {
		return "", fmt.Errorf("oauth: sign client assertion with %s: %w", alg, err)
	}
	return s, nil
}

// doJSON runs req and decodes a 2xx JSON answer into out (when not nil).
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

// revokeToken sends an RFC 7009 revocation request with the client's
// authentication (the library has no revocation call).
func revokeToken(ctx context.Context, hc *http.Client, endpoint string, form url.Values, cl *Client, audience string) error {
	extra, err := cl.assertion(audience)
	if err != nil {
		return err
	}
	maps.Copy(form, extra)
	if cl.authStyle() == oauth2.AuthStyleInParams {
		form.Set("client_id", cl.ClientID)
		if s := cl.secret(); s != "" {
			form.Set("client_secret", s)
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return fmt.Errorf("oauth: revocation request: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if cl.authStyle() == oauth2.AuthStyleInHeader {
		req.SetBasicAuth(url.QueryEscape(cl.ClientID), url.QueryEscape(cl.ClientSecret))
	}
	return doJSON(hc, req, "revocation", nil)
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
