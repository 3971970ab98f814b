package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// maxBody bounds every metadata or endpoint answer we read.
const maxBody = 1 << 20

// ResourceMetadata is OAuth 2.0 protected-resource metadata (RFC 9728).
type ResourceMetadata struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers,omitempty"`
	ScopesSupported        []string `json:"scopes_supported,omitempty"`
	BearerMethodsSupported []string `json:"bearer_methods_supported,omitempty"`
	ResourceName           string   `json:"resource_name,omitempty"`
	// DPoP (RFC 9449 §10.2 / RFC 9728): the resource accepts or requires
	// DPoP-bound tokens.
	DPoPSigningAlgValuesSupported []string `json:"dpop_signing_alg_values_supported,omitempty"`
	DPoPBoundAccessTokensRequired bool     `json:"dpop_bound_access_tokens_required,omitempty"`
}

// ServerMetadata is authorization-server metadata (RFC 8414, or OpenID
// Connect discovery), reduced to what the client uses. Fallback is set
// when nothing was published and the 2025-03-26 default endpoints are used.
type ServerMetadata struct {
	Issuer                                     string   `json:"issuer"`
	AuthorizationEndpoint                      string   `json:"authorization_endpoint,omitempty"`
	TokenEndpoint                              string   `json:"token_endpoint,omitempty"`
	RegistrationEndpoint                       string   `json:"registration_endpoint,omitempty"`
	RevocationEndpoint                         string   `json:"revocation_endpoint,omitempty"`
	ScopesSupported                            []string `json:"scopes_supported,omitempty"`
	GrantTypesSupported                        []string `json:"grant_types_supported,omitempty"`
	TokenEndpointAuthMethodsSupported          []string `json:"token_endpoint_auth_methods_supported,omitempty"`
	CodeChallengeMethodsSupported              []string `json:"code_challenge_methods_supported,omitempty"`
	ClientIDMetadataDocumentSupported          bool     `json:"client_id_metadata_document_supported,omitempty"`
	AuthorizationResponseIssParameterSupported bool     `json:"authorization_response_iss_parameter_supported,omitempty"`
	DPoPSigningAlgValuesSupported              []string `json:"dpop_signing_alg_values_supported,omitempty"`
	Fallback                                   bool     `json:"spyglass_fallback,omitempty"`
}

// ResourceMetadataURLs lists where to look for the protected-resource
// metadata of the MCP endpoint serverURL, in order: the resource_metadata
// URL of the challenge (when given), the path-aware well-known URL, the
// root well-known URL (RFC 9728 §3.1, MCP 2025-11-25).
func ResourceMetadataURLs(serverURL, fromChallenge string) ([]string, error) {
	u, err := url.Parse(serverURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("oauth: server URL %q is not absolute", serverURL)
	}
	var out []string
	if fromChallenge != "" {
		out = append(out, fromChallenge)
	}
	base := u.Scheme + "://" + u.Host
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	if path != "" {
		out = append(out, base+"/.well-known/oauth-protected-resource"+path)
	}
	out = append(out, base+"/.well-known/oauth-protected-resource")
	return dedupe(out), nil
}

// ServerMetadataURLs lists where to look for the metadata of the
// authorization server whose issuer identifier is issuer, in the order of
// MCP 2025-11-25: for an issuer with a path, OAuth with path insertion,
// OpenID Connect with path insertion, OpenID Connect with the path
// appended; without a path, OAuth then OpenID Connect at the root.
func ServerMetadataURLs(issuer string) ([]string, error) {
	u, err := url.Parse(issuer)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("oauth: issuer %q is not absolute", issuer)
	}
	base := u.Scheme + "://" + u.Host
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	if path == "" {
		return []string{
			base + "/.well-known/oauth-authorization-server",
			base + "/.well-known/openid-configuration",
		}, nil
	}
	return []string{
		base + "/.well-known/oauth-authorization-server" + path,
		base + "/.well-known/openid-configuration" + path,
		base + path + "/.well-known/openid-configuration",
	}, nil
}

// FallbackMetadata is the 2025-03-26 default: an authorization server at
// the origin of serverURL that publishes no metadata, with /authorize,
// /token and /register at its root.
func FallbackMetadata(serverURL string) (ServerMetadata, error) {
	u, err := url.Parse(serverURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ServerMetadata{}, fmt.Errorf("oauth: server URL %q is not absolute", serverURL)
	}
	base := u.Scheme + "://" + u.Host
	return ServerMetadata{
		Issuer:                base,
		AuthorizationEndpoint: base + "/authorize",
		TokenEndpoint:         base + "/token",
		RegistrationEndpoint:  base + "/register",
		Fallback:              true,
	}, nil
}

// CanonicalResource is the RFC 8707 resource indicator for an MCP
// endpoint: scheme and host in lower case, no fragment, no trailing slash
// on a bare origin.
func CanonicalResource(serverURL string) (string, error) {
	u, err := url.Parse(serverURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", fmt.Errorf("oauth: server URL %q is not absolute", serverURL)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	u.Fragment, u.RawFragment = "", ""
	if u.Path == "/" {
		u.Path, u.RawPath = "", ""
	}
	return u.String(), nil
}

// ResourceMatches reports whether the resource named by protected-resource
// metadata covers serverURL: same scheme, host and port, and its path is
// serverURL's path or a parent of it (segment-wise).
func ResourceMatches(resource, serverURL string) bool {
	r, err1 := url.Parse(resource)
	s, err2 := url.Parse(serverURL)
	if err1 != nil || err2 != nil || r.Host == "" {
		return false
	}
	if !strings.EqualFold(r.Scheme, s.Scheme) || !strings.EqualFold(hostPort(r), hostPort(s)) {
		return false
	}
	rp := strings.TrimSuffix(r.Path, "/")
	sp := strings.TrimSuffix(s.Path, "/")
	return rp == "" || sp == rp || strings.HasPrefix(sp, rp+"/")
}

// hostPort is the host with the scheme's default port made explicit.
func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return u.Host + ":443"
	case "http":
		return u.Host + ":80"
	}
	return u.Host
}

// sameIssuer compares issuer identifiers; a trailing slash is the only
// difference tolerated.
func sameIssuer(a, b string) bool {
	return a != "" && strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")
}

// fetch GETs u and returns the body of a 200 answer (nil for any other
// status: the next candidate URL is tried then). Transport errors are
// returned.
func fetch(ctx context.Context, c *http.Client, u string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("oauth: metadata %s: %w", u, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("oauth: metadata %s: %w", u, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return nil, fmt.Errorf("oauth: metadata %s: %w", u, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, nil
	}
	return body, nil
}

// parseResourceMetadata reads a protected-resource metadata document; ok
// is false when body is not one (not JSON, no resource).
func parseResourceMetadata(body []byte) (m ResourceMetadata, ok bool) {
	if json.Unmarshal(body, &m) != nil || m.Resource == "" {
		return ResourceMetadata{}, false
	}
	return m, true
}

// parseServerMetadata reads an authorization-server metadata document
// fetched from u for issuer; ok is false when body is not one (not JSON,
// neither an authorization nor a token endpoint). With strict, its issuer
// must be issuer (RFC 8414 §3.3); without, a missing issuer is issuer.
func parseServerMetadata(body []byte, u, issuer string, strict bool) (m ServerMetadata, ok bool, err error) {
	if json.Unmarshal(body, &m) != nil || m.AuthorizationEndpoint == "" && m.TokenEndpoint == "" {
		return ServerMetadata{}, false, nil
	}
	m.Fallback = false
	if strict && !sameIssuer(m.Issuer, issuer) {
		return ServerMetadata{}, false, fmt.Errorf("oauth: metadata at %s names issuer %q, not %q: %w", u, m.Issuer, issuer, ErrIssuerMismatch)
	}
	if m.Issuer == "" {
		m.Issuer = issuer
	}
	return m, true, nil
}

// discoverResource fetches protected-resource metadata from the first
// candidate URL that has it. ok is false when none has.
func discoverResource(ctx context.Context, c *http.Client, serverURL, fromChallenge string) (ResourceMetadata, bool, error) {
	urls, err := ResourceMetadataURLs(serverURL, fromChallenge)
	if err != nil {
		return ResourceMetadata{}, false, err
	}
	for _, u := range urls {
		body, err := fetch(ctx, c, u)
		if err != nil {
			return ResourceMetadata{}, false, err
		}
		if m, ok := parseResourceMetadata(body); ok {
			return m, true, nil
		}
	}
	return ResourceMetadata{}, false, nil
}

// discoverServer fetches the metadata of issuer. With strict, its issuer
// must be issuer; the 2025-03-26 fallback (the MCP server's origin
// standing in for an issuer) is not strict.
func discoverServer(ctx context.Context, c *http.Client, issuer string, strict bool) (ServerMetadata, bool, error) {
	urls, err := ServerMetadataURLs(issuer)
	if err != nil {
		return ServerMetadata{}, false, err
	}
	for _, u := range urls {
		body, err := fetch(ctx, c, u)
		if err != nil {
			return ServerMetadata{}, false, err
		}
		if m, ok, err := parseServerMetadata(body, u, issuer, strict); ok || err != nil {
			return m, ok, err
		}
	}
	return ServerMetadata{}, false, nil
}

func dedupe(in []string) []string {
	seen := map[string]bool{}
	out := in[:0]
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
