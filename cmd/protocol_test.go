package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/mcpresult"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// TestProtocolFlags: --protocol-version and --protocol-era reach the
// resolved server of an ad-hoc target and of a catalog entry, over what
// the entry says.
func TestProtocolFlags(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(config, []byte(`{"mcpServers":{
		"pinned":{"url":"http://127.0.0.1:1/mcp","protocolVersion":"2025-06-18"},
		"modern":{"url":"http://127.0.0.1:1/mcp","protocolEra":"modern"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args        []string
		wantVersion string
		wantEra     catalog.Era
	}{
		{[]string{"--protocol-era", "modern", "http://127.0.0.1:1/mcp"}, "", catalog.EraModern},
		{[]string{"--protocol-version", "2026-07-28", "--protocol-era", "modern", "http://127.0.0.1:1/mcp"}, "2026-07-28", catalog.EraModern},
		{[]string{"--protocol-version=2024-11-05", "--", "node", "server.js"}, "2024-11-05", ""},
		// the flag wins over the entry: an era drops the pinned version
		{[]string{"--config", config, "--server", "pinned", "--protocol-era", "auto"}, "", catalog.EraAuto},
		{[]string{"--config", config, "--server", "pinned"}, "2025-06-18", ""},
		{[]string{"--config", config, "--server", "modern", "--protocol-version", "2025-11-25"}, "2025-11-25", catalog.EraModern},
		{[]string{"--config", config, "--server", "modern", "--protocol-era", "legacy"}, "", catalog.EraLegacy},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			args := append([]string{"--cli", "--method", "tools/list"}, tc.args...)
			inv, err := ParseArgs(args)
			if err != nil {
				t.Fatal(err)
			}
			src, err := inv.SourceEnv(func(string) string { return "" })
			if err != nil {
				t.Fatal(err)
			}
			cat, _, err := src.Open()
			if err != nil {
				t.Fatal(err)
			}
			_, srv, err := src.Resolve(cat)
			if err != nil {
				t.Fatal(err)
			}
			if srv.ProtocolVersion != tc.wantVersion || srv.ProtocolEra != tc.wantEra {
				t.Errorf("resolved protocolVersion %q, protocolEra %q; want %q, %q", srv.ProtocolVersion, srv.ProtocolEra, tc.wantVersion, tc.wantEra)
			}
			// what the session is told
			c, err := newConnection("x", srv, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			wantEra := tc.wantEra
			if wantEra == "" {
				wantEra = catalog.EraLegacy
			}
			if c.opts.ProtocolVersion != tc.wantVersion || string(c.opts.Era) != string(wantEra) {
				t.Errorf("session options %q %q", c.opts.ProtocolVersion, c.opts.Era)
			}
		})
	}
}

// TestProtocolFlagErrors: bad values and contradicting flags are usage
// errors that name what was given and what to write.
func TestProtocolFlagErrors(t *testing.T) {
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"--protocol-version", "2026-01-01"}, []string{`--protocol-version "2026-01-01"`, "2025-11-25", "2026-07-28"}},
		{[]string{"--protocol-era", "new"}, []string{`--protocol-era "new"`, "legacy", "modern", "auto"}},
		{[]string{"--protocol-version", "2025-11-25", "--protocol-era", "modern"}, []string{"--protocol-version 2025-11-25", "--protocol-era modern", "contradict"}},
		{[]string{"--protocol-version", "2026-07-28", "--protocol-era", "legacy"}, []string{"--protocol-version 2026-07-28", "--protocol-era legacy"}},
		{[]string{"--protocol-version", "2025-06-18", "--protocol-era", "auto"}, []string{"--protocol-version 2025-06-18", "--protocol-era auto"}},
		// with a server file, the flag must say which server it is for
		{[]string{"--config", "mcp.json", "--protocol-era", "modern"}, []string{"--protocol-era", "--server NAME"}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			args := append([]string{"--cli", "--method", "tools/list"}, tc.args...)
			if !slices.Contains(tc.args, "--config") {
				args = append(args, "http://127.0.0.1:1/mcp")
			}
			inv, err := ParseArgs(args)
			if err == nil {
				_, err = inv.SourceEnv(func(string) string { return "" })
			}
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// TestLegacyServerMessage: a legacy-only server asked for the modern
// protocol is told as such, with what to set — not as a wrong endpoint.
func TestLegacyServerMessage(t *testing.T) {
	for _, refusal := range []error{
		fmt.Errorf("session: server/discover: %w", &wire.HTTPError{Status: 400, Method: "POST", URL: "http://127.0.0.1:1/mcp"}),
		fmt.Errorf("session: server/discover: %w", &session.RPCError{Code: session.CodeMethodNotFound, Message: "Method not found"}),
	} {
		msg := describeError(fmt.Errorf("connect: %w", &session.LegacyServerError{Version: "2026-07-28", Refusal: refusal}))
		for _, w := range []string{"does not speak protocol 2026-07-28", "legacy initialize handshake", "--protocol-era auto"} {
			if !strings.Contains(msg, w) {
				t.Errorf("%q does not say %q", msg, w)
			}
		}
		if strings.Contains(msg, "MCP endpoint") {
			t.Errorf("%q sends the user looking at the endpoint", msg)
		}
	}
}

// TestConformanceCalls: the scenario context's toolCalls are made as
// given; otherwise every callable tool is, and a tool the session excludes
// is not; the schema echo gets the other tool's input schema byte for byte.
func TestConformanceCalls(t *testing.T) {
	schema := `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"a":{"$anchor":"A"}},"additionalProperties":false}`
	tools, ps := mcpresult.DecodeTools([]json.RawMessage{
		json.RawMessage(`{"name":"focal","inputSchema":` + schema + `}`),
		json.RawMessage(`{"name":"json_schema_echo","inputSchema":{"type":"object","properties":{"schema":{"type":"object"}},"required":["schema"]}}`),
		json.RawMessage(`{"name":"bad","inputSchema":{}}`),
	})
	if ps != nil {
		t.Fatal(ps)
	}
	tools[2].HeaderError = session.ErrInvalidToolHeaders
	calls := conformanceCalls("json-schema-2020-12-preservation", tools, conformanceContext{})
	if len(calls) != 2 || calls[0].Name != "focal" || calls[1].Name != "json_schema_echo" {
		t.Fatalf("calls = %+v", calls)
	}
	got, _ := json.Marshal(calls[1].Arguments)
	if string(got) != `{"schema":`+schema+`}` {
		t.Errorf("echo arguments = %s", got)
	}

	var cc conformanceContext
	if err := json.Unmarshal([]byte(`{"toolCalls":[{"name":"t","arguments":{"region":"us","n":1}}]}`), &cc); err != nil {
		t.Fatal(err)
	}
	calls = conformanceCalls("http-custom-headers", tools, cc)
	if len(calls) != 1 || calls[0].Name != "t" {
		t.Fatalf("calls = %+v", calls)
	}
	if got, _ := json.Marshal(calls[0].Arguments); string(got) != `{"region":"us","n":1}` {
		t.Errorf("arguments = %s", got)
	}
	if !errors.Is(tools[2].HeaderError, session.ErrInvalidToolHeaders) {
		t.Fatal("fixture")
	}
}
