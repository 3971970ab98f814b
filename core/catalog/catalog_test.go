package catalog

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// docs that must render back byte for byte when nothing changed.
var roundTripDocs = map[string]string{
	"seed":          Seed,
	"compact":       `{"mcpServers":{"a":{"command":"x","args":["1","2"]},"b":{"type":"http","url":"http://h/mcp"}}}`,
	"tabs and crlf": "{\r\n\t\"mcpServers\": {\r\n\t\t\"a\": { \"command\" : \"x\" }\r\n\t}\r\n}",
	"unknown fields": `{
  "$schema": "https://example.com/schema.json",
  "mcpServers": {
    "a": {"zeta": 1, "command": "x", "alpha": {"nested": [1, 2, {"k": null}]}, "disabled": true}
  },
  "globalShortcut": "Ctrl+Space"
}`,
	"legacy metadata":             `{"mcpServers": {"a": {"command": "x", "metadata": [{"key": "tenant", "value": "acme"}]}}}`,
	"secret":                      `{"mcpServers": {"a": {"type": "http", "url": "https://h.example/mcp", "oauth": {"clientId": "id", "clientSecret": "s3cret"}}}}`,
	"defaults written explicitly": `{"mcpServers": {"a": {"command": "x", "protocolEra": "legacy", "modernLogLevel": "debug", "taskTtl": 60000, "maxFetchRequests": 1000, "paginatedLists": false, "oauth": {"requestRefreshToken": true}}}}`,
	"no servers member":           "{\n  \"other\": true\n}\n",
	"empty":                       `{}`,
	"empty servers":               `{"mcpServers": {}}`,
	"trailing space":              "  {\"mcpServers\": {}}  \n\n",
	"invalid entries":             `{"mcpServers": {"bad": {"type": "websocket", "url": "ws://x"}, "num": 5, "dup": {"command": "a"}, "dup": {"command": "b"}}}`,
	"unicode":                     `{"mcpServers": {"café ☕": {"command": "caf\u00e9", "args": ["\u2603", "ü"]}}}`,
}

func TestRoundTripUnchanged(t *testing.T) {
	for name, doc := range roundTripDocs {
		t.Run(name, func(t *testing.T) {
			c, err := Parse([]byte(doc))
			if c == nil {
				t.Fatalf("Parse: %v", err)
			}
			if got := string(c.Bytes()); got != doc {
				t.Fatalf("unchanged catalog rendered differently:\n got %q\nwant %q", got, doc)
			}
			if c.Changed() {
				t.Fatal("Changed() = true for an untouched catalog")
			}
			// Putting back what Get returned changes nothing either.
			for _, n := range c.Names() {
				s, _ := c.Get(n)
				if s.Validate() == nil && c.Problem(n) == nil {
					if err := c.Put(n, s); err != nil {
						t.Fatal(err)
					}
				}
			}
			if got := string(c.Bytes()); got != doc {
				t.Fatalf("Get/Put of every entry changed the bytes:\n got %q\nwant %q", got, doc)
			}
		})
	}
}

func mustParse(t *testing.T, doc string) *Catalog {
	t.Helper()
	c, err := Parse([]byte(doc))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return c
}

func TestMinimalDiff(t *testing.T) {
	doc := `{
  "mcpServers": {
    "one": {
      "command": "node",
      "args": [ "a.js" ],
      "x-custom": {"keep": "me"}
    },
    "two": {"type": "http",   "url": "http://127.0.0.1:1/mcp"},
    "three": {
      "type": "stdio",
      "command": "python3"
    }
  },
  "extra": [1,2,3]
}
`
	tests := []struct {
		name string
		edit func(c *Catalog)
		want string
	}{
		{"change one field of the first entry", func(c *Catalog) {
			s, _ := c.Get("one")
			s.Env = map[string]string{"B": "2", "A": "1"}
			c.Put("one", s)
		}, `{
  "mcpServers": {
    "one": {
      "command": "node",
      "args": [ "a.js" ],
      "x-custom": {"keep": "me"},
      "env": {
        "A": "1",
        "B": "2"
      }
    },
    "two": {"type": "http",   "url": "http://127.0.0.1:1/mcp"},
    "three": {
      "type": "stdio",
      "command": "python3"
    }
  },
  "extra": [1,2,3]
}
`},
		{"change a one-line entry", func(c *Catalog) {
			s, _ := c.Get("two")
			s.ProtocolVersion = "2025-06-18"
			c.Put("two", s)
		}, `{
  "mcpServers": {
    "one": {
      "command": "node",
      "args": [ "a.js" ],
      "x-custom": {"keep": "me"}
    },
    "two": {"type": "http", "url": "http://127.0.0.1:1/mcp", "protocolVersion": "2025-06-18"},
    "three": {
      "type": "stdio",
      "command": "python3"
    }
  },
  "extra": [1,2,3]
}
`},
		{"delete the last entry", func(c *Catalog) { c.Delete("three") }, `{
  "mcpServers": {
    "one": {
      "command": "node",
      "args": [ "a.js" ],
      "x-custom": {"keep": "me"}
    },
    "two": {"type": "http",   "url": "http://127.0.0.1:1/mcp"}
  },
  "extra": [1,2,3]
}
`},
		{"delete the first entry", func(c *Catalog) { c.Delete("one") }, `{
  "mcpServers": {
    "two": {"type": "http",   "url": "http://127.0.0.1:1/mcp"},
    "three": {
      "type": "stdio",
      "command": "python3"
    }
  },
  "extra": [1,2,3]
}
`},
		{"add an entry", func(c *Catalog) {
			c.Put("four", Server{Type: TypeSSE, URL: "https://sse.example/sse", Headers: map[string]string{"X-Tenant": "acme"}})
		}, `{
  "mcpServers": {
    "one": {
      "command": "node",
      "args": [ "a.js" ],
      "x-custom": {"keep": "me"}
    },
    "two": {"type": "http",   "url": "http://127.0.0.1:1/mcp"},
    "three": {
      "type": "stdio",
      "command": "python3"
    },
    "four": {
      "type": "sse",
      "url": "https://sse.example/sse",
      "headers": {
        "X-Tenant": "acme"
      }
    }
  },
  "extra": [1,2,3]
}
`},
		{"rename keeps the value bytes", func(c *Catalog) { c.Rename("two", "deux") }, `{
  "mcpServers": {
    "one": {
      "command": "node",
      "args": [ "a.js" ],
      "x-custom": {"keep": "me"}
    },
    "deux": {"type": "http",   "url": "http://127.0.0.1:1/mcp"},
    "three": {
      "type": "stdio",
      "command": "python3"
    }
  },
  "extra": [1,2,3]
}
`},
		{"setting a field back to its default removes it", func(c *Catalog) {
			s, _ := c.Get("three")
			s.Args = nil
			s.Command = "python3"
			c.Put("three", s)
		}, "unchanged"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := mustParse(t, doc)
			tc.edit(c)
			want := tc.want
			if want == "unchanged" {
				want = doc
			}
			if got := string(c.Bytes()); got != want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, want)
			}
			if _, err := Parse(c.Bytes()); err != nil {
				t.Fatalf("result does not parse: %v", err)
			}
		})
	}
}

func TestDefaultsOmittedOnWrite(t *testing.T) {
	f, tr, zero := false, true, 0
	thousand := DefaultMaxFetchRequests
	tests := []struct {
		name string
		srv  Server
		want string // the rendered entry, compact
	}{
		{"all defaults spelled out", Server{Type: TypeStdio, Command: "x", ProtocolEra: EraLegacy, ModernLogLevel: "debug", TaskTTL: DefaultTaskTTL, MaxFetchRequests: &thousand,
			OAuth: &OAuth{RequestRefreshToken: &tr, RevokeOnClear: &tr}},
			`{"type":"stdio","command":"x"}`},
		{"zero values", Server{Type: TypeStdio, Command: "x", Args: []string{}, Env: map[string]string{}}, `{"type":"stdio","command":"x"}`},
		{"non-defaults", Server{Type: TypeHTTP, URL: "http://h/mcp", ProtocolEra: EraModern, ModernLogLevel: "off", TaskTTL: 5, MaxFetchRequests: &zero,
			ConnectionTimeout: 1000, RequestTimeout: 2000, AutoRefreshOnListChanged: true, PaginatedLists: true, ProtocolVersion: "2026-07-28",
			Roots:                []Root{{URI: "file:///p", Name: "p"}, {URI: "file:///q"}},
			Metadata:             json.RawMessage(`{"tenant":"acme","trace":{"id":"abc","sampled":true},"features":["apps"]}`),
			AdvertisedExtensions: json.RawMessage(`{"io.x/ext":{"on":false}}`),
			OAuth: &OAuth{ClientID: "cid", ClientSecret: "never-written", Scopes: "a b", RequestRefreshToken: &f, RevokeOnClear: &f,
				AuthorizationParams: map[string]string{"login_hint": "me"}, AuthorizationURL: "https://as/authorize", TokenURL: "https://as/token",
				EnterpriseManaged: true, OnInsufficientScope: "prompt"}},
			`{"type":"http","url":"http://h/mcp","protocolVersion":"2026-07-28","protocolEra":"modern","modernLogLevel":"off",` +
				`"roots":[{"uri":"file:///p","name":"p"},{"uri":"file:///q"}],"metadata":{"tenant":"acme","trace":{"id":"abc","sampled":true},"features":["apps"]},` +
				`"connectionTimeout":1000,"requestTimeout":2000,"taskTtl":5,"autoRefreshOnListChanged":true,"paginatedLists":true,` +
				`"advertisedExtensions":{"io.x/ext":{"on":false}},"maxFetchRequests":0,` +
				`"oauth":{"clientId":"cid","scopes":"a b","requestRefreshToken":false,"revokeOnClear":false,"authorizationParams":{"login_hint":"me"},` +
				`"authorizationUrl":"https://as/authorize","tokenUrl":"https://as/token","enterpriseManaged":true,"onInsufficientScope":"prompt"}}`},
		{"secret alone writes no oauth", Server{Type: TypeStdio, Command: "x", OAuth: &OAuth{ClientSecret: "s"}}, `{"type":"stdio","command":"x"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := mustParse(t, `{"mcpServers":{}}`)
			c.readOnly = false
			if err := c.Put("s", tc.srv); err != nil {
				t.Fatal(err)
			}
			var doc struct {
				MCPServers map[string]json.RawMessage `json:"mcpServers"`
			}
			if err := json.Unmarshal(c.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			if got := string(compact(doc.MCPServers["s"])); got != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
			// and it reads back as the same server
			c2 := mustParse(t, string(c.Bytes()))
			got, _ := c2.Get("s")
			want := tc.srv
			if !got.Equal(&want) && !(tc.srv.OAuth != nil && tc.srv.OAuth.ClientSecret != "") {
				t.Fatalf("read back %+v, want %+v", got, want)
			}
		})
	}
}

func TestFieldsRead(t *testing.T) {
	c := mustParse(t, `{"mcpServers": {
	"s": {"type": "stdio", "command": "node", "args": ["a"], "env": {"K": "V"}, "cwd": "/w",
	      "protocolEra": "auto", "modernLogLevel": "info", "roots": [{"uri": "file:///r", "name": "r"}],
	      "connectionTimeout": 10, "requestTimeout": 20, "taskTtl": 30, "maxFetchRequests": 0,
	      "oauth": {"clientId": "c", "clientSecret": "x", "scopes": ["a", "b"], "requestRefreshToken": false}},
	"h": {"type": "streamable-http", "url": "https://h.example/mcp", "headers": {"X": "1"}},
	"inferred-stdio": {"command": "x"},
	"inferred-http": {"url": "https://h.example/mcp"}
}}`)
	s, _ := c.Get("s")
	if s.Command != "node" || s.Args[0] != "a" || s.Env["K"] != "V" || s.Cwd != "/w" || s.EffectiveEra() != EraAuto ||
		s.EffectiveModernLogLevel() != "info" || s.Roots[0].Name != "r" || s.ConnectionTimeoutDuration().Milliseconds() != 10 ||
		s.RequestTimeout != 20 || s.TaskTTLOrDefault() != 30 || s.MaxFetchRequestsOrDefault() != 0 ||
		s.OAuth.ClientID != "c" || s.OAuth.ClientSecret != "x" || s.OAuth.Scopes != "a b" || s.OAuth.RequestsRefreshToken() || !s.OAuth.RevokesOnClear() {
		t.Fatalf("decoded %+v (oauth %+v)", s, s.OAuth)
	}
	h, _ := c.Get("h")
	if h.Type != TypeHTTP || h.Headers["X"] != "1" || h.EffectiveEra() != EraLegacy || h.TaskTTLOrDefault() != DefaultTaskTTL || h.MaxFetchRequestsOrDefault() != DefaultMaxFetchRequests {
		t.Fatalf("decoded %+v", h)
	}
	if s, _ := c.Get("inferred-stdio"); s.Type != TypeStdio {
		t.Fatalf("type not inferred from command: %q", s.Type)
	}
	if s, _ := c.Get("inferred-http"); s.Type != TypeHTTP {
		t.Fatalf("type not inferred from url: %q", s.Type)
	}
	// an inferred type is not written when the entry changes
	s, _ = c.Get("inferred-stdio")
	s.Args = []string{"y"}
	c.Put("inferred-stdio", s)
	if !strings.Contains(string(c.Bytes()), `"inferred-stdio": {"command": "x", "args": ["y"]}`) {
		t.Fatalf("got %s", c.Bytes())
	}
}

func TestLegacyMetadata(t *testing.T) {
	doc := `{
  "mcpServers": {
    "a": {
      "command": "x",
      "metadata": [{"key": "tenant", "value": "acme"}, {"key": "n", "value": 3}, {"key": "obj", "value": {"deep": [true]}}]
    }
  }
}`
	c := mustParse(t, doc)
	s, _ := c.Get("a")
	if got := string(s.Metadata); got != `{"tenant":"acme","n":3,"obj":{"deep":[true]}}` {
		t.Fatalf("legacy metadata read as %s", got)
	}
	if string(c.Bytes()) != doc {
		t.Fatal("an untouched legacy entry must keep its bytes")
	}
	s.Cwd = "/w"
	c.Put("a", s)
	want := `{
  "mcpServers": {
    "a": {
      "command": "x",
      "metadata": {
        "tenant": "acme",
        "n": 3,
        "obj": {
          "deep": [true]
        }
      },
      "cwd": "/w"
    }
  }
}`
	if got := string(c.Bytes()); got != want {
		t.Fatalf("legacy shape must be rewritten as an object:\n%s", got)
	}
	if _, err := Parse([]byte(`{"mcpServers": {"a": {"command": "x", "metadata": [{"value": 1}]}}}`)); !errors.Is(err, ErrInvalidValue) {
		t.Fatalf("a legacy pair without key: %v", err)
	}
}

func TestReservedMetaKeys(t *testing.T) {
	tests := []struct {
		meta     string
		warnKeys []string
		kept     string
	}{
		{`{"progressToken": "abc", "x": 1}`, nil, `{"progressToken": "abc", "x": 1}`},
		{`{"progressToken": 42}`, nil, `{"progressToken": 42}`},
		{`{"progressToken": 9007199254740991}`, nil, `{"progressToken": 9007199254740991}`},
		{`{"progressToken": 9007199254740993, "x": [1]}`, []string{"progressToken"}, `{"x":[1]}`},
		{`{"progressToken": 1.5}`, []string{"progressToken"}, `{}`},
		{`{"progressToken": {"a": 1}}`, []string{"progressToken"}, `{}`},
		{`{"io.modelcontextprotocol/related-task": {"taskId": "t1"}}`, nil, `{"io.modelcontextprotocol/related-task": {"taskId": "t1"}}`},
		{`{"io.modelcontextprotocol/related-task": {"taskId": 5}, "progressToken": null, "keep": null}`, []string{MetaRelatedTask, "progressToken"}, `{"keep":null}`},
		{`{"io.modelcontextprotocol/related-task": "t1"}`, []string{MetaRelatedTask}, `{}`},
	}
	for _, tc := range tests {
		out, ws := SanitizeMeta(json.RawMessage(tc.meta))
		var keys []string
		for _, w := range ws {
			keys = append(keys, w.Key)
		}
		if strings.Join(keys, ",") != strings.Join(tc.warnKeys, ",") || string(out) != tc.kept {
			t.Errorf("SanitizeMeta(%s) = %s, warnings %v; want %s, %v", tc.meta, out, keys, tc.kept, tc.warnKeys)
		}
	}
	c := mustParse(t, `{"mcpServers": {"a": {"command": "x", "metadata": {"progressToken": true}}}}`)
	if ws := c.Warnings(); len(ws) != 1 || ws[0].Server != "a" || ws[0].Key != "progressToken" {
		t.Fatalf("warnings %v", ws)
	}
}

func TestClientSecretNeverWritten(t *testing.T) {
	doc := `{"mcpServers": {"a": {"type": "http", "url": "https://h.example/mcp", "oauth": {"clientId": "id", "clientSecret": "s3cret", "x": 1}}}}`
	// untouched entry: the secret already in the file stays
	c := mustParse(t, doc)
	s, _ := c.Get("a")
	if s.OAuth.ClientSecret != "s3cret" {
		t.Fatal("secret not read")
	}
	s.OAuth.Scopes = "read"
	c.Put("a", s)
	if got := string(c.Bytes()); !strings.Contains(got, `"clientSecret": "s3cret"`) || !strings.Contains(got, `"scopes": "read"`) || !strings.Contains(got, `"x": 1`) {
		t.Fatalf("unchanged secret must keep its bytes: %s", got)
	}
	// a changed secret is not written, and the old one leaves the file
	s.OAuth.ClientSecret = "new-secret"
	c.Put("a", s)
	if got := string(c.Bytes()); strings.Contains(got, "secret\"") || strings.Contains(got, "new-secret") || strings.Contains(got, "s3cret") {
		t.Fatalf("changed secret written: %s", got)
	}
	if s, _ := c.Get("a"); s.OAuth.ClientSecret != "new-secret" {
		t.Fatal("the new secret must stay in memory")
	}
	// a new entry's secret is never written
	c.Put("b", Server{Type: TypeHTTP, URL: "https://b.example/mcp", OAuth: &OAuth{ClientID: "c", ClientSecret: "zzz"}})
	if strings.Contains(string(c.Bytes()), "zzz") {
		t.Fatal("secret of a new entry written")
	}
}

func TestBadInput(t *testing.T) {
	tests := []struct {
		name      string
		doc       string
		err       error
		line, col int    // for syntax errors
		server    string // for entry errors
		field     string
	}{
		{"missing brace", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}\n  \n", ErrSyntax, 5, 1, "", ""},
		{"two commas", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"},,\n  }\n}", ErrSyntax, 3, 27, "", ""},
		{"unterminated comment", "{\n  \"mcpServers\": {} /* no end\n}", ErrSyntax, 2, 20, "", ""},
		{"garbage", "{\"mcpServers\": {\"a\": {\"command\": \"é\" x}}}", ErrSyntax, 1, 38, "", ""},
		{"empty file", "", ErrSyntax, 1, 1, "", ""},
		{"array document", `[1]`, ErrShape, 0, 0, "", ""},
		{"servers not object", `{"mcpServers": []}`, ErrShape, 0, 0, "", ""},
		{"unknown type", `{"mcpServers": {"a": {"type": "websocket", "url": "ws://x"}}}`, ErrUnknownType, 0, 0, "a", "type"},
		{"non-string type", `{"mcpServers": {"a": {"type": 3, "command": "x"}}}`, ErrUnknownType, 0, 0, "a", "type"},
		{"no type no command no url", `{"mcpServers": {"a": {}}}`, ErrUnknownType, 0, 0, "a", "type"},
		{"stdio without command", `{"mcpServers": {"a": {"type": "stdio", "args": ["x"]}}}`, ErrMissingCommand, 0, 0, "a", "command"},
		{"http without url", `{"mcpServers": {"a": {"type": "http"}}}`, ErrMissingURL, 0, 0, "a", "url"},
		{"http invalid url", `{"mcpServers": {"a": {"type": "http", "url": "localhost:3000/mcp"}}}`, ErrInvalidURL, 0, 0, "a", "url"},
		{"sse ftp url", `{"mcpServers": {"a": {"type": "sse", "url": "ftp://h/x"}}}`, ErrInvalidURL, 0, 0, "a", "url"},
		{"args not array", `{"mcpServers": {"a": {"command": "x", "args": "y"}}}`, ErrInvalidValue, 0, 0, "a", "args"},
		{"env values not strings", `{"mcpServers": {"a": {"command": "x", "env": {"A": 1}}}}`, ErrInvalidValue, 0, 0, "a", "env"},
		{"bad era", `{"mcpServers": {"a": {"command": "x", "protocolEra": "future"}}}`, ErrInvalidValue, 0, 0, "a", "protocolEra"},
		{"bad version", `{"mcpServers": {"a": {"command": "x", "protocolVersion": "2025-01-01"}}}`, ErrInvalidValue, 0, 0, "a", "protocolVersion"},
		{"bad log level", `{"mcpServers": {"a": {"command": "x", "modernLogLevel": "loud"}}}`, ErrInvalidValue, 0, 0, "a", "modernLogLevel"},
		{"metadata string", `{"mcpServers": {"a": {"command": "x", "metadata": "x"}}}`, ErrInvalidValue, 0, 0, "a", "metadata"},
		{"negative timeout", `{"mcpServers": {"a": {"command": "x", "requestTimeout": -1}}}`, ErrInvalidValue, 0, 0, "a", "requestTimeout"},
		{"float ttl", `{"mcpServers": {"a": {"command": "x", "taskTtl": 1.5}}}`, ErrInvalidValue, 0, 0, "a", "taskTtl"},
		{"oauth bad token url", `{"mcpServers": {"a": {"command": "x", "oauth": {"tokenUrl": "nope"}}}}`, ErrInvalidURL, 0, 0, "a", "oauth.tokenUrl"},
		{"oauth wrong type", `{"mcpServers": {"a": {"command": "x", "oauth": {"revokeOnClear": "no"}}}}`, ErrInvalidValue, 0, 0, "a", "oauth.revokeOnClear"},
		{"entry not an object", `{"mcpServers": {"a": "node x"}}`, ErrInvalidValue, 0, 0, "a", ""},
		{"duplicate name", `{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}}`, ErrDuplicateName, 0, 0, "a", ""},
		{"empty name", `{"mcpServers": {"": {"command": "x"}}}`, ErrInvalidName, 0, 0, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse([]byte(tc.doc))
			if !errors.Is(err, tc.err) {
				t.Fatalf("err = %v, want %v", err, tc.err)
			}
			var se *SyntaxError
			if errors.As(err, &se) {
				if c != nil {
					t.Fatal("a catalog came with a syntax error")
				}
				if se.Line != tc.line || se.Column != tc.col {
					t.Fatalf("position %d:%d, want %d:%d (%v)", se.Line, se.Column, tc.line, tc.col, err)
				}
				return
			}
			var inv *InvalidError
			if errors.As(err, &inv) {
				if c == nil {
					t.Fatal("an invalid entry must not lose the catalog")
				}
				var ee *EntryError
				if !errors.As(err, &ee) || ee.Server != tc.server || ee.Field != tc.field {
					t.Fatalf("entry error %#v, want server %q field %q", ee, tc.server, tc.field)
				}
				if string(c.Bytes()) != tc.doc {
					t.Fatal("a file with bad entries must render unchanged")
				}
				if tc.server != "" {
					if _, _, err := c.Select(tc.server); !errors.Is(err, tc.err) {
						t.Fatalf("Select of a broken entry: %v", err)
					}
				}
			}
		})
	}
}

func TestUnknownEntryErrorSaysWhatToWrite(t *testing.T) {
	_, err := Parse([]byte(`{"mcpServers": {"a": {"type": "ws", "url": "ws://x"}}}`))
	var ee *EntryError
	if !errors.As(err, &ee) || strings.Join(ee.Allowed, ",") != "stdio,http,sse" || ee.Value != `"ws"` {
		t.Fatalf("%#v", ee)
	}
}

func TestPutValidates(t *testing.T) {
	c := New()
	tests := []struct {
		s   Server
		err error
	}{
		{Server{Type: TypeStdio}, ErrMissingCommand},
		{Server{Type: TypeHTTP, URL: "not a url"}, ErrInvalidURL},
		{Server{Type: "ws"}, ErrUnknownType},
		{Server{}, ErrUnknownType},
		{Server{Type: TypeStdio, Command: "x", ProtocolVersion: "1.0"}, ErrInvalidValue},
		{Server{Type: TypeStdio, Command: "x", Metadata: json.RawMessage(`[1]`)}, ErrInvalidValue},
	}
	for _, tc := range tests {
		if err := c.Put("x", tc.s); !errors.Is(err, tc.err) {
			t.Errorf("Put(%+v) = %v, want %v", tc.s, err, tc.err)
		}
	}
	if c.Len() != 0 {
		t.Fatal("an invalid server was stored")
	}
	if err := c.Put("", Server{Type: TypeStdio, Command: "x"}); !errors.Is(err, ErrInvalidName) {
		t.Fatal(err)
	}
	c.Put("a", Server{Type: TypeStdio, Command: "x"})
	if err := c.Add("a", Server{Type: TypeStdio, Command: "y"}); !errors.Is(err, ErrExists) {
		t.Fatal(err)
	}
	if err := c.Rename("nope", "b"); !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
}

func TestSelect(t *testing.T) {
	c := New()
	if _, _, err := c.Select(""); !errors.Is(err, ErrNoServers) {
		t.Fatal(err)
	}
	c.Put("a", Server{Type: TypeStdio, Command: "x"})
	if n, _, err := c.Select(""); err != nil || n != "a" {
		t.Fatal(n, err)
	}
	c.Put("b", Server{Type: TypeStdio, Command: "y"})
	if _, _, err := c.Select(""); !errors.Is(err, ErrAmbiguous) {
		t.Fatal(err)
	}
	if _, _, err := c.Select("zz"); !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
	if n, s, err := c.Select("b"); err != nil || n != "b" || s.Command != "y" {
		t.Fatal(err)
	}
}

func TestAddToFileWithoutServers(t *testing.T) {
	tests := []struct{ doc, want string }{
		{"{\n  \"theme\": \"dark\"\n}\n", "{\n  \"theme\": \"dark\",\n  \"mcpServers\": {\n    \"a\": {\n      \"type\": \"stdio\",\n      \"command\": \"x\"\n    }\n  }\n}\n"},
		{"{}", "{\n  \"mcpServers\": {\n    \"a\": {\n      \"type\": \"stdio\",\n      \"command\": \"x\"\n    }\n  }\n}"},
		{`{"theme":"dark"}`, `{"theme":"dark","mcpServers":{"a":{"type":"stdio","command":"x"}}}`},
		{"{\n  \"mcpServers\": {}\n}", "{\n  \"mcpServers\": {\n    \"a\": {\n      \"type\": \"stdio\",\n      \"command\": \"x\"\n    }\n  }\n}"},
	}
	for _, tc := range tests {
		c := mustParse(t, tc.doc)
		c.Put("a", Server{Type: TypeStdio, Command: "x"})
		if got := string(c.Bytes()); got != tc.want {
			t.Errorf("%q: got\n%s\nwant\n%s", tc.doc, got, tc.want)
		}
	}
}

func TestServerJSON(t *testing.T) {
	s := Server{Type: TypeStdio, Command: "x", Args: []string{"a"}, ProtocolEra: EraLegacy, OAuth: &OAuth{ClientID: "c", ClientSecret: "no"}}
	b, err := json.Marshal(s)
	if err != nil || string(b) != `{"type":"stdio","command":"x","args":["a"],"oauth":{"clientId":"c"}}` {
		t.Fatalf("%s %v", b, err)
	}
	var back Server
	if err := json.Unmarshal(b, &back); err != nil || back.Command != "x" || back.OAuth.ClientID != "c" {
		t.Fatalf("%+v %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"type":"ws"}`), &back); !errors.Is(err, ErrUnknownType) {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(`{"url":"https://h.example/mcp"}`), &back); err != nil || back.Type != TypeHTTP {
		t.Fatal(err)
	}
}

func TestLayoutImitated(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"crlf", "{\r\n  \"mcpServers\": {\r\n    \"a\": {\r\n      \"command\": \"x\"\r\n    }\r\n  }\r\n}\r\n",
			"{\r\n  \"mcpServers\": {\r\n    \"a\": {\r\n      \"command\": \"x\"\r\n    },\r\n    \"b\": {\r\n      \"type\": \"stdio\",\r\n      \"command\": \"y\",\r\n      \"env\": {\r\n        \"K\": \"V\"\r\n      }\r\n    }\r\n  }\r\n}\r\n"},
		{"tabs", "{\n\t\"mcpServers\": {\n\t\t\"a\": {\"command\": \"x\"}\n\t}\n}",
			"{\n\t\"mcpServers\": {\n\t\t\"a\": {\"command\": \"x\"},\n\t\t\"b\": {\n\t\t\t\"type\": \"stdio\",\n\t\t\t\"command\": \"y\",\n\t\t\t\"env\": {\n\t\t\t\t\"K\": \"V\"\n\t\t\t}\n\t\t}\n\t}\n}"},
		{"one line", `{"mcpServers":{"a":{"command":"x"}}}`, `{"mcpServers":{"a":{"command":"x"},"b":{"type":"stdio","command":"y","env":{"K":"V"}}}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := mustParse(t, tc.doc)
			c.Put("b", Server{Type: TypeStdio, Command: "y", Env: map[string]string{"K": "V"}})
			if got := string(c.Bytes()); got != tc.want {
				t.Fatalf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestBOM(t *testing.T) {
	c := mustParse(t, "\ufeff{\n  \"mcpServers\": {}\n}\n")
	c.Put("a", Server{Type: TypeStdio, Command: "x"})
	if got := string(c.Bytes()); !strings.HasPrefix(got, "\ufeff{\n  \"mcpServers\": {\n    \"a\"") {
		t.Fatalf("%q", got)
	}
	_, err := Parse([]byte("\ufeff{\n  x"))
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 2 || se.Column != 3 {
		t.Fatal(err)
	}
}
