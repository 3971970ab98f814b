package oauth

import (
	"sort"
	"strings"

	"github.com/spyglass-mcp/spyglass/core/catalog"
)

// Warnings only CheckSettings reports.
const (
	// WarnOfflineAccessConsent: requestRefreshToken is off but Scopes names
	// offline_access, so offline_access is still requested (with
	// prompt=consent).
	WarnOfflineAccessConsent WarningCode = "offline-access-consent"
	// WarnEnterpriseIgnored: a setting that enterprise-managed
	// authorization ignores is set. Detail is the field name.
	WarnEnterpriseIgnored WarningCode = "enterprise-ignored"
)

// CheckSettings lists what an OAuth settings form should flag inline,
// in a stable order: authorizationParams that name reserved parameters
// (dropped at sign-in), authorizationUrl/tokenUrl that are not absolute
// http(s) URLs (ignored), an unknown onInsufficientScope, offline_access
// in Scopes with requestRefreshToken off, and settings that
// enterprise-managed authorization ignores.
func CheckSettings(s catalog.OAuth) []Warning {
	var out []Warning
	var reserved []string
	for k := range s.AuthorizationParams {
		if contains(ReservedParams, k) {
			reserved = append(reserved, k)
		}
	}
	sort.Strings(reserved)
	for _, k := range reserved {
		out = append(out, Warning{Code: WarnReservedParam, Detail: k})
	}
	if v := strings.TrimSpace(s.AuthorizationURL); v != "" && !validEndpoint(v) {
		out = append(out, Warning{Code: WarnBadOverride, Detail: "authorizationUrl"})
	}
	if v := strings.TrimSpace(s.TokenURL); v != "" && !validEndpoint(v) {
		out = append(out, Warning{Code: WarnBadOverride, Detail: "tokenUrl"})
	}
	switch p := strings.ToLower(strings.TrimSpace(s.OnInsufficientScope)); p {
	case "", StepUpAuthorize, "reauthorize", "authorize", StepUpFail, "error", "none", "off":
	default:
		out = append(out, Warning{Code: WarnStepUpPolicy, Detail: s.OnInsufficientScope})
	}
	if !s.RequestsRefreshToken() && contains(strings.Fields(s.Scopes), OfflineAccess) {
		out = append(out, Warning{Code: WarnOfflineAccessConsent, Detail: "scopes"})
	}
	if s.EnterpriseManaged {
		if len(s.AuthorizationParams) > 0 {
			out = append(out, Warning{Code: WarnEnterpriseIgnored, Detail: "authorizationParams"})
		}
		if s.AuthorizationURL != "" {
			out = append(out, Warning{Code: WarnEnterpriseIgnored, Detail: "authorizationUrl"})
		}
		if s.TokenURL != "" {
			out = append(out, Warning{Code: WarnEnterpriseIgnored, Detail: "tokenUrl"})
		}
		if !s.RequestsRefreshToken() {
			out = append(out, Warning{Code: WarnEnterpriseIgnored, Detail: "requestRefreshToken"})
		}
	}
	return out
}
