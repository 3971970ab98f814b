package oauth

import (
	"slices"
	"strings"
)

// OfflineAccess is the scope that asks an OpenID-style authorization
// server for a refresh token.
const OfflineAccess = "offline_access"

// ScopeInput is what scope selection looks at.
type ScopeInput struct {
	Configured       string   // catalog oauth.scopes (space separated); wins when set
	Challenge        string   // scope of the WWW-Authenticate challenge
	ResourceScopes   []string // scopes_supported of the protected-resource metadata
	ServerScopes     []string // scopes_supported of the authorization-server metadata
	WantRefreshToken bool     // oauth.requestRefreshToken (default true)
	Granted          string   // scope of the current grant (step-up adds to it)
	StepUp           bool     // a 403 insufficient_scope: request Granted ∪ Challenge
}

// SelectScopes returns the scopes to request (possibly none, meaning the
// scope parameter is omitted), following MCP 2025-11-25 and SEP-2207:
//
//  1. configured scopes when set, else the challenge's scope, else the
//     protected resource's scopes_supported, else none;
//  2. on step-up, the current grant's scopes are kept and the challenged
//     ones added;
//  3. offline_access is added when a refresh token is wanted and the
//     authorization server lists it; when no refresh token is wanted it is
//     removed — unless the configured scopes name it, which always wins.
func SelectScopes(in ScopeInput) []string {
	configured := strings.Fields(in.Configured)
	var base []string
	switch {
	case len(configured) > 0:
		base = configured
	case in.Challenge != "":
		base = strings.Fields(in.Challenge)
	case len(in.ResourceScopes) > 0:
		base = in.ResourceScopes
	}
	var out []string
	add := func(ss ...string) {
		for _, s := range ss {
			if s != "" && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	if in.StepUp {
		add(strings.Fields(in.Granted)...)
		add(configured...)
		add(strings.Fields(in.Challenge)...)
	} else {
		add(base...)
	}
	userAsked := slices.Contains(configured, OfflineAccess)
	if in.WantRefreshToken {
		// Only next to other scopes: asking for offline_access alone
		// would turn "scope omitted" (the server's default grant) into a
		// grant of nothing but offline access.
		if len(out) > 0 && slices.Contains(in.ServerScopes, OfflineAccess) {
			add(OfflineAccess)
		}
	} else if !userAsked {
		out = remove(out, OfflineAccess)
	}
	return out
}

func remove(list []string, s string) []string {
	out := list[:0:0]
	for _, v := range list {
		if v != s {
			out = append(out, v)
		}
	}
	return out
}
