package oauth

import (
	"fmt"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/catalog"
)

func TestCheckSettings(t *testing.T) {
	no := false
	for _, c := range []struct {
		name string
		in   catalog.OAuth
		want string
	}{
		{"defaults", catalog.OAuth{}, "[]"},
		{"fine", catalog.OAuth{AuthorizationParams: map[string]string{"login_hint": "a"}, AuthorizationURL: "https://s/auth", OnInsufficientScope: "fail"}, "[]"},
		{"reserved", catalog.OAuth{AuthorizationParams: map[string]string{"state": "x", "scope": "y", "prompt": "login"}},
			"[{reserved-param scope} {reserved-param state}]"},
		{"bad overrides", catalog.OAuth{AuthorizationURL: "/auth", TokenURL: "ftp://h/token"},
			"[{bad-override authorizationUrl} {bad-override tokenUrl}]"},
		{"policy", catalog.OAuth{OnInsufficientScope: "ask me"}, "[{step-up-policy ask me}]"},
		{"offline_access without refresh", catalog.OAuth{RequestRefreshToken: &no, Scopes: "a offline_access"},
			"[{offline-access-consent scopes}]"},
		{"enterprise", catalog.OAuth{EnterpriseManaged: true, RequestRefreshToken: &no, TokenURL: "https://t", AuthorizationParams: map[string]string{"a": "b"}},
			"[{enterprise-ignored authorizationParams} {enterprise-ignored tokenUrl} {enterprise-ignored requestRefreshToken}]"},
	} {
		if got := fmt.Sprint(CheckSettings(c.in)); got != c.want {
			t.Errorf("%s: CheckSettings = %s, want %s", c.name, got, c.want)
		}
	}
}
