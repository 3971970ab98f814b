package oauth

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParseChallenge drives untrusted WWW-Authenticate values through the
// challenge parser: it never panics, finds nothing without a Bearer
// challenge, and reads back a well-formed quoted parameter exactly.
func FuzzParseChallenge(f *testing.F) {
	for _, s := range []string{
		`Bearer resource_metadata="https://h/.well-known/oauth-protected-resource/mcp"`,
		`Bearer error="insufficient_scope", scope="a b", error_description="need \"write\", sorry"`,
		`Basic realm="x", Bearer realm="mcp", Scope="a b"`,
		`bearer error=invalid_token`, `Bearer`, `Bearer ,,=,"`, `Negotiate abc==`, `Bearer scope="unterminated`, "",
	} {
		f.Add(s, "x y")
	}
	f.Fuzz(func(t *testing.T, header, scope string) {
		c := ParseChallenge(401, []string{header})
		if !c.Bearer && (c.Error != "" || c.Scope != "" || c.ResourceMetadata != "" || c.Description != "") {
			t.Fatalf("%q: parameters %+v without a Bearer challenge", header, c)
		}
		if !strings.ContainsAny(header, `"\`) && !strings.ContainsAny(scope, `"\`) {
			quoted := `Bearer scope="` + scope + `"`
			if c := ParseChallenge(403, []string{header, quoted}); !strings.Contains(strings.ToLower(header), "bearer") && c.Scope != scope {
				t.Fatalf("%q then %q: scope %q, want %q", header, quoted, c.Scope, scope)
			}
		}
	})
}

// FuzzMetadataDocuments drives untrusted metadata documents through the
// protected-resource and authorization-server readers: they never panic,
// a document taken has what the client needs, and a strict read never
// takes a document naming another issuer.
func FuzzMetadataDocuments(f *testing.F) {
	for _, s := range []string{
		`{"resource":"https://mcp.example/mcp","authorization_servers":["https://as.example"]}`,
		`{"issuer":"https://as.example","authorization_endpoint":"https://as.example/auth","token_endpoint":"https://as.example/token","code_challenge_methods_supported":["S256"]}`,
		`{"issuer":"https://evil.example","token_endpoint":"x"}`,
		`{"token_endpoint":"https://as.example/t","scopes_supported":"not a list"}`,
		`[]`, `null`, `{"resource":""}`, `{`, "",
	} {
		f.Add([]byte(s))
	}
	const issuer = "https://as.example"
	f.Fuzz(func(t *testing.T, body []byte) {
		if m, ok := parseResourceMetadata(body); ok && m.Resource == "" {
			t.Fatalf("took a resource document without resource: %s", body)
		}
		for _, strict := range []bool{true, false} {
			m, ok, err := parseServerMetadata(body, "https://as.example/.well-known/oauth-authorization-server", issuer, strict)
			if err != nil && (ok || !errors.Is(err, ErrIssuerMismatch)) {
				t.Fatalf("strict=%t: ok %t, err %v", strict, ok, err)
			}
			if !ok {
				continue
			}
			if m.AuthorizationEndpoint == "" && m.TokenEndpoint == "" || m.Issuer == "" || m.Fallback {
				t.Fatalf("strict=%t: took %+v from %s", strict, m, body)
			}
			if strict && !sameIssuer(m.Issuer, issuer) {
				t.Fatalf("strict read took issuer %q", m.Issuer)
			}
		}
	})
}
