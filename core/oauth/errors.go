package oauth

import (
	"errors"
	"fmt"
)

// Errors callers branch on. Each is wrapped with the operation that failed.
var (
	// ErrNoMetadata: no authorization server could be found for the
	// resource (no usable protected-resource or server metadata).
	ErrNoMetadata = errors.New("oauth: no authorization server metadata")
	// ErrResourceMismatch: the protected-resource metadata names a
	// resource other than the server being connected to.
	ErrResourceMismatch = errors.New("oauth: protected resource metadata names another resource")
	// ErrIssuerMismatch: an issuer did not match the one discovered
	// (server metadata issuer, or the iss of the authorization response).
	ErrIssuerMismatch = errors.New("oauth: issuer mismatch")
	// ErrStateMismatch: the authorization response carried another state.
	ErrStateMismatch = errors.New("oauth: state mismatch")
	// ErrNoRegistration: there is no way to obtain a client: no
	// pre-registered client id, no registration endpoint, no client ID
	// metadata document support.
	ErrNoRegistration = errors.New("oauth: no way to register a client")
	// ErrInsufficientScope: a 403 insufficient_scope that step-up will not
	// (or may no longer) resolve.
	ErrInsufficientScope = errors.New("oauth: insufficient scope")
	// ErrNotAuthorized: no token is available and the flow was not run.
	ErrNotAuthorized = errors.New("oauth: not authorized")
	// ErrEnterpriseManaged: oauth.enterpriseManaged is set but the
	// enterprise identity provider is not configured (Options.Enterprise),
	// or it did not give what the flow needs.
	ErrEnterpriseManaged = errors.New("oauth: enterprise-managed authorization is not configured")
	// ErrPKCEUnsupported: the authorization server's metadata does not
	// list S256 in code_challenge_methods_supported; MCP clients must not
	// proceed.
	ErrPKCEUnsupported = errors.New("oauth: authorization server does not support PKCE S256")
	// ErrBrowser: the authorization URL could not be opened (see
	// BrowserError for the command that failed).
	ErrBrowser = errors.New("oauth: cannot open the browser")
	// ErrSignInTimeout: no authorization response reached the loopback
	// receiver within Options.SignInTimeout.
	ErrSignInTimeout = errors.New("oauth: no authorization response in time")
	// ErrNoChallenge: the server refused with 403 but sent no Bearer
	// challenge (a proxy or firewall, not OAuth): no sign-in is tried.
	ErrNoChallenge = errors.New("oauth: refusal without a Bearer challenge")
)

// AuthorizationError is an error response of the authorization endpoint,
// delivered to the redirect URI (RFC 6749 §4.1.2.1).
type AuthorizationError struct {
	Code        string // error, e.g. access_denied
	Description string // error_description
	URI         string // error_uri
}

// Error describes the response.
func (e *AuthorizationError) Error() string {
	if e.Description != "" {
		return fmt.Sprintf("oauth: authorization denied: %s: %s", e.Code, e.Description)
	}
	return "oauth: authorization denied: " + e.Code
}

// EndpointError is an HTTP error answer of a token, registration or
// revocation endpoint. Code and Description come from a JSON error body
// (RFC 6749 §5.2) when there is one. It never carries the request.
type EndpointError struct {
	Endpoint    string // "token", "registration", "revocation", "metadata"
	URL         string
	Status      int
	Code        string
	Description string
}

// Error describes the response.
func (e *EndpointError) Error() string {
	s := fmt.Sprintf("oauth: %s endpoint %s answered %d", e.Endpoint, e.URL, e.Status)
	if e.Code != "" {
		s += ": " + e.Code
	}
	if e.Description != "" {
		s += ": " + e.Description
	}
	return s
}
