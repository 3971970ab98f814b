package oauth

import (
	"maps"
	"net/url"
	"slices"
)

// ReservedParams are the authorization request parameters the flow sets
// itself; oauth.authorizationParams may not override them.
var ReservedParams = []string{
	"client_id", "code_challenge", "code_challenge_method", "redirect_uri",
	"resource", "response_type", "scope", "state",
}

// AuthRequest is one authorization request (RFC 6749 §4.1.1 with PKCE,
// RFC 7636, and the resource indicator, RFC 8707).
type AuthRequest struct {
	Endpoint      string   // authorization_endpoint
	ClientID      string   // client_id
	RedirectURI   string   // the loopback redirect URI
	Scopes        []string // omitted when empty
	State         string
	CodeChallenge string // S256 challenge of the PKCE verifier
	Resource      string // omitted when empty
	// Extra holds oauth.authorizationParams; reserved names are dropped.
	Extra map[string]string
}

// URL builds the authorization URL. It returns the names of the Extra
// parameters dropped because they are reserved (sorted). When the scope
// includes offline_access, prompt=consent is added (OpenID Connect
// §11 requires it for a refresh token) unless Extra sets prompt.
func (r AuthRequest) URL() (string, []string, error) {
	u, err := url.Parse(r.Endpoint)
	if err != nil {
		return "", nil, err
	}
	q := u.Query()
	var dropped []string
	for _, k := range slices.Sorted(maps.Keys(r.Extra)) {
		if slices.Contains(ReservedParams, k) {
			dropped = append(dropped, k)
			continue
		}
		q.Set(k, r.Extra[k])
	}
	q.Set("response_type", "code")
	q.Set("client_id", r.ClientID)
	q.Set("redirect_uri", r.RedirectURI)
	q.Set("state", r.State)
	q.Set("code_challenge", r.CodeChallenge)
	q.Set("code_challenge_method", "S256")
	if len(r.Scopes) > 0 {
		q.Set("scope", joinScopes(r.Scopes))
		if slices.Contains(r.Scopes, OfflineAccess) && q.Get("prompt") == "" {
			q.Set("prompt", "consent")
		}
	}
	if r.Resource != "" {
		q.Set("resource", r.Resource)
	}
	u.RawQuery = q.Encode()
	return u.String(), dropped, nil
}

func joinScopes(s []string) string {
	out := ""
	for i, v := range s {
		if i > 0 {
			out += " "
		}
		out += v
	}
	return out
}
