package cmd

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/catalog"
)

func split(s string) []string { return strings.Fields(s) }

func TestParseArgs(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		check func(*Invocation) bool
	}{
		{"no args is the desktop app", nil, func(i *Invocation) bool { return i.Mode == ModeGUI && len(i.Target) == 0 }},
		{"target before flags", split("--cli node build/index.js --method tools/list"),
			func(i *Invocation) bool {
				return i.Mode == ModeCLI && reflect.DeepEqual(i.Target, split("node build/index.js")) && i.Method == "tools/list"
			}},
		{"target after flags (the seed's CLI drops it; we keep it)", split("--cli --method tools/list node build/index.js"),
			func(i *Invocation) bool { return reflect.DeepEqual(i.Target, split("node build/index.js")) }},
		{"target split around flags", split("--cli node --method tools/list build/index.js"),
			func(i *Invocation) bool { return reflect.DeepEqual(i.Target, split("node build/index.js")) }},
		{"-- gives the rest to the target", split("node build/index.js -- --config /etc/x.conf --verbose"),
			func(i *Invocation) bool {
				return reflect.DeepEqual(i.Target, split("node build/index.js --config /etc/x.conf --verbose")) && i.Config == "" && !i.Verbose
			}},
		{"-- with no target before it", split("--cli --method ping -- node s.js -x"),
			func(i *Invocation) bool { return reflect.DeepEqual(i.Target, split("node s.js -x")) }},
		{"-- is the same under --cli", split("--cli --method tools/list node s.js -- --method x"),
			func(i *Invocation) bool {
				return i.Method == "tools/list" && reflect.DeepEqual(i.Target, split("node s.js --method x"))
			}},
		{"--flag=value", []string{"--catalog=/c.json", "--server=a", "-e=K=V", "-eX=Y", "--header=Authorization: Bearer t"},
			func(i *Invocation) bool {
				return i.Catalog == "/c.json" && i.Server == "a" && reflect.DeepEqual(i.Env, []KeyValue{{"K", "V"}, {"X", "Y"}}) &&
					reflect.DeepEqual(i.Headers, []KeyValue{{"Authorization", "Bearer t"}})
			}},
		{"repeatable flags keep order", []string{"-e", "B=2", "-e", "A=1=x", "-e", "EMPTY=", "node"},
			func(i *Invocation) bool {
				return reflect.DeepEqual(i.Env, []KeyValue{{"B", "2"}, {"A", "1=x"}, {"EMPTY", ""}})
			}},
		{"header value trimmed", []string{"--header", "X-Tenant:acme ", "--header", "X-B:  b c", "--server-url", "http://h/mcp"},
			func(i *Invocation) bool {
				return reflect.DeepEqual(i.Headers, []KeyValue{{"X-Tenant", "acme"}, {"X-B", "b c"}})
			}},
		{"all cli flags", []string{"--cli", "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "a=1", "--tool-arg", "b={\"x\":1}",
			"--format", "json", "--trace", "t.json", "--verbose", "--root", "/r1", "--root", "file:///r2", "--timeout", "1m30s",
			"--sampling", "mock:hello there", "--elicitation", "accept", "--metadata", `{"tenant":"acme"}`, "node", "s.js"},
			func(i *Invocation) bool {
				return i.ToolName == "echo" && reflect.DeepEqual(i.ToolArgs, []KeyValue{{"a", "1"}, {"b", `{"x":1}`}}) && i.Format == "json" &&
					i.Trace == "t.json" && i.Verbose && reflect.DeepEqual(i.Roots, []string{"/r1", "file:///r2"}) && i.Timeout == 90*time.Second &&
					i.Sampling == "mock" && i.SamplingText == "hello there" && i.Elicitation == "accept" && i.Metadata == `{"tenant":"acme"}`
			}},
		{"cli defaults", split("--cli --method ping x"),
			func(i *Invocation) bool {
				return i.Format == "text" && i.Sampling == "decline" && i.Elicitation == "decline"
			}},
		{"tools/call with args json", []string{"--cli", "--method", "tools/call", "--tool-name", "t", "--tool-args-json", `{"a": [1]}`, "x"},
			func(i *Invocation) bool { return i.ToolArgsJSON == `{"a": [1]}` }},
		{"resources/read", split("--cli --method resources/read --uri demo://notes x"), func(i *Invocation) bool { return i.URI == "demo://notes" }},
		{"prompts/get", split("--cli --method prompts/get --prompt-name p --prompt-arg a=b x"),
			func(i *Invocation) bool {
				return i.PromptName == "p" && reflect.DeepEqual(i.PromptArgs, []KeyValue{{"a", "b"}})
			}},
		{"logging/setLevel", split("--cli --method logging/setLevel --log-level warning x"), func(i *Invocation) bool { return i.LogLevel == "warning" }},
		{"completion prompt", split("--cli --method completion/complete --ref prompt:greet --argument name=Al --context-arg lang=en x"),
			func(i *Invocation) bool {
				return *i.Ref == CompletionRef{Type: "ref/prompt", Name: "greet"} && *i.Argument == KeyValue{"name", "Al"} &&
					reflect.DeepEqual(i.ContextArgs, []KeyValue{{"lang", "en"}})
			}},
		{"completion resource", split("--cli --method completion/complete --ref resource:file:///{path} --argument path=/u x"),
			func(i *Invocation) bool { return *i.Ref == CompletionRef{Type: "ref/resource", URI: "file:///{path}"} }},
		{"request headers", []string{"--cli", "--method", "x/custom", "--params-json", `{}`, "--request-header", "X-A: 1 ", "--request-header", "X-B:2", "http://h/mcp"},
			func(i *Invocation) bool {
				return reflect.DeepEqual(i.RequestHeaders, []KeyValue{{"X-A", "1"}, {"X-B", "2"}}) && len(i.Headers) == 0
			}},
		{"any method with params", []string{"--cli", "--method", "x/custom", "--params-json", `{"a":1}`, "x"},
			func(i *Invocation) bool { return i.Method == "x/custom" && i.ParamsJSON == `{"a":1}` }},
		{"params-json replaces required flags", []string{"--cli", "--method", "tools/call", "--params-json", `{"name":"t"}`, "x"},
			func(i *Invocation) bool { return i.ToolName == "" }},
		{"servers/list", split("--cli --method servers/list"), func(i *Invocation) bool { return i.Method == "servers/list" }},
		{"servers/show", split("--cli --method servers/show --server a --format json"), func(i *Invocation) bool { return i.Server == "a" }},
		{"import", split("--import claude.json --catalog /c.json"),
			func(i *Invocation) bool {
				return i.Mode == ModeImport && i.ImportFile == "claude.json" && i.Catalog == "/c.json"
			}},
		{"demo server", split("--demo-server"), func(i *Invocation) bool { return i.Mode == ModeDemoServer }},
		{"demo server http", split("--demo-server --transport http --port 8123 --notes-dir /tmp/n"),
			func(i *Invocation) bool { return i.Transport == "http" && i.Port == 8123 && i.NotesDir == "/tmp/n" }},
		{"conformance client", split("--conformance-client http://127.0.0.1:4000/mcp"),
			func(i *Invocation) bool {
				return i.Mode == ModeConformance && i.ConformanceURL == "http://127.0.0.1:4000/mcp"
			}},
		{"help wins", split("--cli -h"), func(i *Invocation) bool { return i.Mode == ModeHelp }},
		{"help long", split("--help"), func(i *Invocation) bool { return i.Mode == ModeHelp }},
		{"version", split("--version"), func(i *Invocation) bool { return i.Mode == ModeVersion }},
		{"bool flag =true", split("--cli=true --method ping x"), func(i *Invocation) bool { return i.Mode == ModeCLI }},
		{"bool flag =false", split("--verbose=false"), func(i *Invocation) bool { return i.Mode == ModeGUI && !i.Verbose }},
		{"single dash is positional", split("cat -"), func(i *Invocation) bool { return reflect.DeepEqual(i.Target, split("cat -")) }},
		{"value starting with a dash", []string{"--cli", "--method", "tools/call", "--tool-name", "t", "--tool-arg", "n=-5", "x"},
			func(i *Invocation) bool { return i.ToolArgs[0].Value == "-5" }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inv, err := ParseArgs(tc.args)
			if err != nil {
				t.Fatalf("ParseArgs(%q): %v", tc.args, err)
			}
			if !tc.check(inv) {
				t.Fatalf("ParseArgs(%q) = %+v", tc.args, inv)
			}
		})
	}
}

func TestParseArgsErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string // substrings of the message
	}{
		{"unknown flag", split("node s.js --verbose-ish"), []string{"unknown flag --verbose-ish", "after --", "-- node s.js --verbose-ish"}},
		{"unknown short flag", split("python -u srv.py"), []string{"unknown flag -u", "--"}},
		{"unknown flag alone", split("--nope"), []string{"unknown flag --nope", "--"}},
		{"missing value", split("--catalog"), []string{"--catalog needs a value"}},
		{"flag as value", split("--catalog --cli"), []string{"--catalog needs a value"}},
		{"-- as value", split("--server -- x"), []string{"--server needs a value"}},
		{"given twice", split("--catalog a --catalog b"), []string{"--catalog is given twice"}},
		{"empty path", []string{"--catalog", ""}, []string{"--catalog needs a path"}},
		{"nothing after --", split("--"), []string{"nothing after --"}},
		{"bool with value", split("--cli=maybe"), []string{"--cli takes no value"}},
		{"bad transport", split("--transport ws"), []string{`--transport "ws"`, "stdio", "http", "sse"}},
		{"bad url", split("--server-url localhost:3000"), []string{"not a valid URL", "http://127.0.0.1:3000/mcp"}},
		{"bad -e", split("-e KEY node"), []string{`-e "KEY"`, "write -e KEY=VALUE"}},
		{"bad -e empty key", split("-e =v node"), []string{"write -e KEY=VALUE"}},
		{"duplicate -e", split("-e A=1 -e A=2 node"), []string{"-e A is given twice"}},
		{"bad header", []string{"--header", "Authorization Bearer x"}, []string{`write --header "Name: Value"`}},
		{"bad header name", []string{"--header", "Bad Name: x"}, []string{`write --header "Name: Value"`}},
		{"duplicate header", []string{"--header", "X: 1", "--header", "x: 2"}, []string{"--header x is given twice"}},
		{"two modes", split("--cli --import f"), []string{"--cli and --import cannot be used together"}},
		{"cli flag without --cli", split("--method tools/list node s.js"), []string{"--method only works with --cli"}},
		{"cli flag in import mode", split("--import f --format json"), []string{"--format cannot be combined with --import"}},
		{"cli without method", split("--cli node s.js"), []string{"--cli needs --method"}},
		{"tool-name with other method", split("--cli --method tools/list --tool-name t x"), []string{"--tool-name only works with --method tools/call"}},
		{"uri with other method", split("--cli --method tools/list --uri u x"), []string{"--uri only works with --method resources/read"}},
		{"log-level with other method", split("--cli --method ping --log-level info x"), []string{"--log-level only works with --method logging/setLevel"}},
		{"ref with other method", split("--cli --method ping --ref prompt:x x"), []string{"--ref only works with --method completion/complete"}},
		{"tools/call without tool", split("--cli --method tools/call x"), []string{"--method tools/call needs --tool-name"}},
		{"resources/read without uri", split("--cli --method resources/read x"), []string{"needs --uri"}},
		{"prompts/get without name", split("--cli --method prompts/get x"), []string{"needs --prompt-name"}},
		{"setLevel without level", split("--cli --method logging/setLevel x"), []string{"needs --log-level"}},
		{"complete without argument", split("--cli --method completion/complete --ref prompt:p x"), []string{"needs --argument"}},
		{"params-json with tool-name", []string{"--cli", "--method", "tools/call", "--params-json", "{}", "--tool-name", "t", "x"},
			[]string{"--params-json", "cannot be combined with --tool-name"}},
		{"tool-arg and tool-args-json", []string{"--cli", "--method", "tools/call", "--tool-name", "t", "--tool-arg", "a=1", "--tool-args-json", "{}", "x"},
			[]string{"--tool-arg cannot be combined with --tool-args-json"}},
		{"request-header without --cli", []string{"--request-header", "X: 1"}, []string{"--request-header only works with --cli"}},
		{"params-json not object", []string{"--cli", "--method", "x", "--params-json", "[1]"}, []string{"--params-json must be a JSON object"}},
		{"metadata not object", []string{"--cli", "--method", "ping", "--metadata", "tenant=acme"}, []string{"--metadata must be a JSON object"}},
		{"bad tool-arg", split("--cli --method tools/call --tool-name t --tool-arg noequals x"), []string{"write --tool-arg NAME=VALUE"}},
		{"bad format", split("--cli --method ping --format yaml"), []string{"write --format text or --format json"}},
		{"bad log level", split("--cli --method logging/setLevel --log-level loud"), []string{"not an MCP logging level"}},
		{"bad timeout", split("--cli --method ping --timeout 30"), []string{"--timeout 30s"}},
		{"bad sampling", split("--cli --method ping --sampling yes"), []string{"--sampling decline"}},
		{"bad elicitation", split("--cli --method ping --elicitation maybe"), []string{"--elicitation accept"}},
		{"bad ref", split("--cli --method completion/complete --ref tool:x"), []string{"--ref prompt:PROMPT_NAME"}},
		{"bad argument", split("--cli --method completion/complete --ref prompt:p --argument x"), []string{"--argument NAME=PARTIAL_VALUE"}},
		{"servers/list with trace", split("--cli --method servers/list --trace t.json"), []string{"--trace cannot be combined with --method servers/list"}},
		{"import with config", split("--import f --config c"), []string{"--import cannot be combined with --config"}},
		{"import with server", split("--import f --server a"), []string{"--import cannot be combined with --server"}},
		{"import with target", split("--import f node s.js"), []string{"--import takes one file", "node s.js"}},
		{"import with -e", split("--import f -e A=1"), []string{"--import cannot be combined with -e"}},
		{"demo with catalog", split("--demo-server --catalog c"), []string{"--demo-server cannot be combined with --catalog"}},
		{"demo sse", split("--demo-server --transport sse"), []string{"--transport stdio or --transport http"}},
		{"port without http", split("--demo-server --port 3000"), []string{"--port needs --transport http"}},
		{"port without demo", split("--port 3000"), []string{"--port only works with --demo-server"}},
		{"notes-dir without demo", split("--cli --method ping --notes-dir x"), []string{"--notes-dir only works with --demo-server"}},
		{"bad port", split("--demo-server --transport http --port 70000"), []string{"not a port number"}},
		{"demo with target", split("--demo-server node x"), []string{"--demo-server takes no server command"}},
		{"conformance without url", split("--conformance-client"), []string{"--conformance-client takes one server URL"}},
		{"conformance with flags", split("--conformance-client --catalog c http://h/mcp"), []string{"--conformance-client cannot be combined with --catalog"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inv, err := ParseArgs(tc.args)
			if err == nil {
				t.Fatalf("ParseArgs(%q) = %+v, want an error", tc.args, inv)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Fatalf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

func TestSource(t *testing.T) {
	xdg := t.TempDir()
	def := filepath.Join(xdg, "spyglass", "mcp.json")
	env := map[string]string{"XDG_CONFIG_HOME": xdg}
	envCat := map[string]string{"XDG_CONFIG_HOME": xdg, catalog.EnvCatalog: "/env/cat.json"}
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want catalog.Source
	}{
		{"default catalog", nil, env, catalog.Source{Kind: catalog.SourceCatalog, Path: def}},
		{"SPYGLASS_CATALOG", nil, envCat, catalog.Source{Kind: catalog.SourceCatalog, Path: "/env/cat.json"}},
		{"--catalog beats SPYGLASS_CATALOG", split("--catalog /c.json"), envCat, catalog.Source{Kind: catalog.SourceCatalog, Path: "/c.json"}},
		{"--config with SPYGLASS_CATALOG set", split("--config /f.json"), envCat, catalog.Source{Kind: catalog.SourceConfig, Path: "/f.json"}},
		{"--server selects in the GUI too", split("--server a"), env, catalog.Source{Kind: catalog.SourceCatalog, Path: def, Server: "a"}},
		{"--server with --config", split("--config /f.json --server a"), env, catalog.Source{Kind: catalog.SourceConfig, Path: "/f.json", Server: "a"}},
		{"overrides with --server", []string{"--catalog", "/c.json", "--server", "a", "-e", "A=1", "--header", "X: y", "--cwd", "/w"}, env,
			catalog.Source{Kind: catalog.SourceCatalog, Path: "/c.json", Server: "a",
				Overrides: catalog.Overrides{Env: map[string]string{"A": "1"}, Headers: map[string]string{"X": "y"}, Cwd: "/w"}}},
		{"stdio target ignores SPYGLASS_CATALOG", []string{"-e", "K=V", "--cwd", "/w", "node", "build/index.js", "--", "--port", "1"}, envCat,
			catalog.Source{Kind: catalog.SourceAdHoc, AdHocName: "node index.js",
				AdHoc: &catalog.Server{Type: catalog.TypeStdio, Command: "node", Args: []string{"build/index.js", "--port", "1"}, Env: map[string]string{"K": "V"}, Cwd: "/w"}}},
		{"--transport stdio with command", split("--transport stdio -- npx -y srv"), env,
			catalog.Source{Kind: catalog.SourceAdHoc, AdHocName: "npx srv", AdHoc: &catalog.Server{Type: catalog.TypeStdio, Command: "npx", Args: []string{"-y", "srv"}}}},
		{"--server-url defaults to http", []string{"--server-url", "https://api.example.com/mcp", "--header", "X-Tenant: acme"}, envCat,
			catalog.Source{Kind: catalog.SourceAdHoc, AdHocName: "api.example.com",
				AdHoc: &catalog.Server{Type: catalog.TypeHTTP, URL: "https://api.example.com/mcp", Headers: map[string]string{"X-Tenant": "acme"}}}},
		{"--server-url with sse", split("--transport sse --server-url http://127.0.0.1:9/sse"), env,
			catalog.Source{Kind: catalog.SourceAdHoc, AdHocName: "127.0.0.1:9", AdHoc: &catalog.Server{Type: catalog.TypeSSE, URL: "http://127.0.0.1:9/sse"}}},
		{"positional URL", split("http://127.0.0.1:9/mcp"), env,
			catalog.Source{Kind: catalog.SourceAdHoc, AdHocName: "127.0.0.1:9", AdHoc: &catalog.Server{Type: catalog.TypeHTTP, URL: "http://127.0.0.1:9/mcp"}}},
		{"positional URL with --transport sse", split("--transport sse http://127.0.0.1:9/sse"), env,
			catalog.Source{Kind: catalog.SourceAdHoc, AdHocName: "127.0.0.1:9", AdHoc: &catalog.Server{Type: catalog.TypeSSE, URL: "http://127.0.0.1:9/sse"}}},
		{"cli ad-hoc", split("--cli --method tools/list node s.js"), envCat,
			catalog.Source{Kind: catalog.SourceAdHoc, AdHocName: "node s.js", AdHoc: &catalog.Server{Type: catalog.TypeStdio, Command: "node", Args: []string{"s.js"}}}},
		{"import into default", split("--import f.json"), envCat, catalog.Source{Kind: catalog.SourceCatalog, Path: "/env/cat.json"}},
		{"import into --catalog", split("--import f.json --catalog /c.json"), envCat, catalog.Source{Kind: catalog.SourceCatalog, Path: "/c.json"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inv, err := ParseArgs(tc.args)
			if err != nil {
				t.Fatal(err)
			}
			src, err := inv.SourceEnv(func(k string) string { return tc.env[k] })
			if err != nil {
				t.Fatalf("Source: %v", err)
			}
			if !reflect.DeepEqual(*src, tc.want) {
				t.Fatalf("got  %+v %+v\nwant %+v %+v", *src, src.AdHoc, tc.want, tc.want.AdHoc)
			}
		})
	}
}

// Every forbidden combination is an error that names both sides.
func TestSourceForbidden(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"catalog+config", split("--catalog a --config b"), []string{"--catalog", "--config"}},
		{"catalog+command", split("--catalog a node s.js"), []string{"--catalog", "server command (node s.js)"}},
		{"catalog+command after --", split("--catalog a -- node s.js"), []string{"--catalog", "server command (node s.js)"}},
		{"config+command", split("node s.js --config a"), []string{"--config", "server command (node s.js)"}},
		{"catalog+server-url", split("--catalog a --server-url http://h/mcp"), []string{"--catalog", "--server-url"}},
		{"config+server-url", split("--config a --server-url http://h/mcp"), []string{"--config", "--server-url"}},
		{"catalog+transport stdio", split("--catalog a --transport stdio"), []string{"--catalog", "--transport"}},
		{"config+transport http", split("--config a --transport http"), []string{"--config", "--transport"}},
		{"catalog+URL target", split("--catalog a http://h/mcp"), []string{"--catalog", "server URL"}},
		{"server+command", split("--server a node s.js"), []string{"--server", "server command"}},
		{"server+server-url", split("--server a --server-url http://h/mcp"), []string{"--server", "--server-url"}},
		{"server+transport", split("--server a --transport stdio"), []string{"--server", "--transport"}},
		{"command+server-url", split("--server-url http://h/mcp node s.js"), []string{"--server-url", "server command"}},
		{"URL target+server-url", split("--server-url http://h/mcp http://h/other"), []string{"--server-url", "server URL"}},
		{"URL target with args", split("http://h/mcp extra"), []string{"server URL takes no arguments"}},
		{"transport stdio+server-url", split("--transport stdio --server-url http://h/mcp"), []string{"--transport stdio", "--server-url"}},
		{"transport stdio+URL target", split("--transport stdio http://h/mcp"), []string{"--transport stdio", "server URL"}},
		{"transport stdio without command", split("--transport stdio"), []string{"--transport stdio needs a server command"}},
		{"transport http without url", split("--transport http"), []string{"--transport http needs --server-url"}},
		{"transport sse with command", split("--transport sse node s.js"), []string{"--transport sse", "server command", "--server-url"}},
		{"-e with http", split("-e A=1 --server-url http://h/mcp"), []string{"-e", "--server-url"}},
		{"-e with URL target", split("-e A=1 http://h/mcp"), []string{"-e", "server URL"}},
		{"cwd with http", split("--cwd /w --transport http --server-url http://h/mcp"), []string{"--cwd", "--server-url"}},
		{"header with stdio", []string{"--header", "X: y", "node", "s.js"}, []string{"--header", "server command"}},
		{"-e with a file and no --server", split("--catalog c -e A=1"), []string{"-e", "--server NAME"}},
		{"header with default catalog and no --server", []string{"--header", "X: y"}, []string{"--header", "--server NAME"}},
		{"cwd with config and no --server", split("--config c --cwd /w"), []string{"--cwd", "--server NAME"}},
		{"cli: catalog+target after flags", split("--cli --catalog c --method tools/list node s.js"), []string{"--catalog", "node s.js"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inv, err := ParseArgs(tc.args)
			if err == nil {
				_, err = inv.SourceEnv(func(string) string { return "" })
			}
			if err == nil {
				t.Fatalf("%q accepted", tc.args)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Fatalf("error %q does not name %q", err, w)
				}
			}
		})
	}
}

func TestSourceNotForOtherModes(t *testing.T) {
	for _, args := range [][]string{split("--demo-server"), split("--version"), split("--conformance-client http://h/mcp")} {
		inv, err := ParseArgs(args)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := inv.Source(); err == nil {
			t.Fatalf("%q has a source", args)
		}
	}
}

func TestUsageListsEveryVisibleFlag(t *testing.T) {
	u := Usage()
	for _, f := range flagDefs {
		if strings.Contains(u, f.name+" ") != !f.hidden && !strings.Contains(u, f.name+"\n") {
			t.Errorf("usage and %s disagree (hidden=%v)", f.name, f.hidden)
		}
	}
	if strings.Contains(u, "--conformance-client") {
		t.Error("--conformance-client must stay hidden")
	}
}
