package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/http/httpguts"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/wire/fault"
)

// Mode is what one run of spyglass does.
type Mode int

// The modes, chosen by the mode flags.
const (
	ModeGUI         Mode = iota // the desktop app (no mode flag)
	ModeCLI                     // --cli: one request, printed
	ModeImport                  // --import FILE: merge another client's config
	ModeDemoServer              // --demo-server: serve the built-in demo server
	ModeConformance             // --conformance-client URL (hidden)
	ModeHelp                    // --help / -h
	ModeVersion                 // --version
	ModeReplay                  // --replay TRACE: send a trace's requests again and compare
	ModeRun                     // --run COLLECTION: run saved calls and check their expectations
)

// String names the mode ("gui", "cli", ...).
func (m Mode) String() string {
	return [...]string{"gui", "cli", "import", "demo-server", "conformance-client", "help", "version", "replay", "run"}[m]
}

// KeyValue is one KEY=VALUE (or "Name: Value") pair from the command line.
type KeyValue struct {
	Key, Value string
}

// CompletionRef is the reference of a completion/complete request
// (--ref prompt:NAME or --ref resource:URI).
type CompletionRef struct {
	Type string // "ref/prompt" or "ref/resource"
	Name string // prompt name (ref/prompt)
	URI  string // resource template URI (ref/resource)
}

// Invocation is a parsed command line. ParseArgs fills it; Source says
// which servers it names.
type Invocation struct {
	Mode Mode

	// Shared flags (desktop app and --cli alike).
	Catalog   string     // --catalog PATH
	Config    string     // --config PATH
	Server    string     // --server NAME
	Transport string     // --transport stdio|sse|http
	ServerURL string     // --server-url URL
	Cwd       string     // --cwd PATH
	Env       []KeyValue // -e KEY=VALUE, in order
	Headers   []KeyValue // --header "Name: Value", in order
	// ProtocolVersion and ProtocolEra (--protocol-version,
	// --protocol-era) override the server's protocol choice for the run.
	ProtocolVersion string
	ProtocolEra     string
	// Target is the positional target: a command and its arguments (all of
	// what follows "--" included), or one URL.
	Target []string

	// Mode flags.
	ImportFile string // --import FILE
	Port       int    // --port N (--demo-server --transport http)
	NotesDir   string // --notes-dir DIR (--demo-server)
	// ConformanceURL is the server URL of --conformance-client (its last
	// positional argument).
	ConformanceURL string

	// --cli flags.
	Method       string         // --method
	ToolName     string         // --tool-name
	ToolArgs     []KeyValue     // --tool-arg k=v, raw values (parse them against the tool's schema)
	ToolArgsJSON string         // --tool-args-json '{...}' (checked to be a JSON object)
	URI          string         // --uri
	PromptName   string         // --prompt-name
	PromptArgs   []KeyValue     // --prompt-arg k=v
	LogLevel     string         // --log-level (an MCP logging level)
	ParamsJSON   string         // --params-json '{...}' (checked to be a JSON object)
	Format       string         // --format text|json (default text)
	Trace        string         // --trace FILE
	Verbose      bool           // --verbose
	Fault        string         // --fault SPEC (checked with fault.Parse)
	Relogin      bool           // --relogin: clear stored OAuth state first
	NoRevoke     bool           // --no-revoke (with --relogin)
	Browser      string         // --browser CMD for the OAuth sign-in page
	Roots        []string       // --root PATH or URI, repeatable
	Timeout      time.Duration  // --timeout DURATION (0 = the server's requestTimeout / default)
	Sampling     string         // --sampling decline|mock (default decline)
	SamplingText string         // the TEXT of --sampling mock:TEXT
	Elicitation  string         // --elicitation decline|cancel|accept (default decline)
	Metadata     string         // --metadata '{...}' (checked to be a JSON object)
	Ref          *CompletionRef // --ref prompt:NAME | resource:URI
	Argument     *KeyValue      // --argument NAME=VALUE (the argument being completed)
	ContextArgs  []KeyValue     // --context-arg k=v (already-known arguments)

	// RequestHeaders (--request-header "Name: Value", in order) go with
	// the --params-json request only, unlike Headers.
	RequestHeaders []KeyValue

	// Sessions as files (--replay, --run, --har).
	ReplayFile string   // --replay TRACE.json
	RunFile    string   // --run COLLECTION.json
	Ignore     []string // --ignore PATH, repeatable: more volatile JSON paths
	Yes        bool     // --yes: replay tool calls that may change something
	HAR        string   // --har FILE: the HTTP exchanges as HAR 1.2

	// given records the flags given, by canonical name.
	given map[string]bool
}

// Given reports whether a flag (canonical name such as "--catalog" or "-e")
// was on the command line.
func (inv *Invocation) Given(flag string) bool { return inv.given[flag] }

// Values accepted by the enumerated flags.
var (
	transports      = []string{"stdio", "sse", "http"}
	formats         = []string{"text", "json"}
	logLevels       = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}
	elicitationMode = []string{"decline", "cancel", "accept"}
)

// Flag groups: where a flag may be used.
type flagGroup int

const (
	groupShared flagGroup = iota // desktop app and --cli
	groupMode                    // picks the mode
	groupCLI                     // --cli only
	groupDemo                    // --demo-server only
	groupInfo                    // --help, --version
)

type flagKind int

const (
	kindBool flagKind = iota
	kindString
	kindRepeat
)

type flagDef struct {
	name   string // canonical, with dashes
	alias  string // e.g. "-h"
	kind   flagKind
	group  flagGroup
	arg    string // placeholder in the usage text
	usage  string
	hidden bool
	set    func(inv *Invocation, v string) error
}

// flagDefs lists every flag of the product.
var flagDefs = []flagDef{
	// shared
	{name: "--catalog", kind: kindString, group: groupShared, arg: "PATH", usage: "writable catalog file (created and seeded when missing; default $" + catalog.EnvCatalog + " or " + "$XDG_CONFIG_HOME/spyglass/mcp.json)",
		set: func(inv *Invocation, v string) error { return setPath(&inv.Catalog, "--catalog", v) }},
	{name: "--config", kind: kindString, group: groupShared, arg: "PATH", usage: "read-only server file (never written; an error when missing)",
		set: func(inv *Invocation, v string) error { return setPath(&inv.Config, "--config", v) }},
	{name: "--server", kind: kindString, group: groupShared, arg: "NAME", usage: "select one server of the file (with --replay: also the session of that name in a trace of several servers)",
		set: func(inv *Invocation, v string) error {
			if v == "" {
				return fmt.Errorf("--server needs a server name, e.g. --server my-server")
			}
			inv.Server = v
			return nil
		}},
	{name: "--transport", kind: kindString, group: groupShared, arg: "stdio|sse|http", usage: "transport of an ad-hoc server (with --demo-server: stdio|http)",
		set: func(inv *Invocation, v string) error {
			if !slices.Contains(transports, v) {
				return fmt.Errorf("--transport %q is not a transport; write --transport stdio, --transport http (Streamable HTTP) or --transport sse", v)
			}
			inv.Transport = v
			return nil
		}},
	{name: "--server-url", kind: kindString, group: groupShared, arg: "URL", usage: "URL of an ad-hoc http/sse server",
		set: func(inv *Invocation, v string) error {
			if !catalog.ValidURL(v) {
				return fmt.Errorf("--server-url %q is not a valid URL; write an absolute http(s) URL, e.g. --server-url http://127.0.0.1:3000/mcp", v)
			}
			inv.ServerURL = v
			return nil
		}},
	{name: "--cwd", kind: kindString, group: groupShared, arg: "PATH", usage: "working directory of a stdio server",
		set: func(inv *Invocation, v string) error { return setPath(&inv.Cwd, "--cwd", v) }},
	{name: "-e", kind: kindRepeat, group: groupShared, arg: "KEY=VALUE", usage: "environment variable of a stdio server (repeatable)",
		set: func(inv *Invocation, v string) error {
			k, val, ok := strings.Cut(v, "=")
			if !ok || k == "" || strings.ContainsAny(k, " \t\x00") {
				return fmt.Errorf("-e %q: write -e KEY=VALUE, e.g. -e API_KEY=abc123", v)
			}
			return addKV(&inv.Env, "-e", KeyValue{k, val})
		}},
	{name: "--header", kind: kindRepeat, group: groupShared, arg: `"Name: Value"`, usage: "HTTP header of an http/sse server (repeatable)",
		set: func(inv *Invocation, v string) error {
			return addHeader(&inv.Headers, "--header", v)
		}},

	{name: "--protocol-version", kind: kindString, group: groupShared, arg: "VERSION", usage: "speak exactly this MCP protocol version (" + strings.Join(catalog.ProtocolVersions, ", ") + "), over the catalog's choice",
		set: func(inv *Invocation, v string) error {
			if !slices.Contains(catalog.ProtocolVersions, v) {
				return fmt.Errorf("--protocol-version %q is not a protocol version this client speaks; write one of %s", v, strings.Join(catalog.ProtocolVersions, ", "))
			}
			inv.ProtocolVersion = v
			return nil
		}},
	{name: "--protocol-era", kind: kindString, group: groupShared, arg: "legacy|modern|auto", usage: "protocol generation, over the catalog's choice: legacy (initialize, 2025-11-25), modern (server/discover, 2026-07-28) or auto (modern, falling back to legacy)",
		set: func(inv *Invocation, v string) error {
			if !slices.Contains(catalog.Eras, v) {
				return fmt.Errorf("--protocol-era %q: write --protocol-era legacy, --protocol-era modern or --protocol-era auto", v)
			}
			inv.ProtocolEra = v
			return nil
		}},

	// modes
	{name: "--cli", kind: kindBool, group: groupMode, usage: "command-line client: send one request (see --method) and print the result"},
	{name: "--import", kind: kindString, group: groupMode, arg: "FILE", usage: "merge servers from a Claude Desktop, Cursor, Claude Code or VS Code file into the catalog",
		set: func(inv *Invocation, v string) error { return setPath(&inv.ImportFile, "--import", v) }},
	{name: "--demo-server", kind: kindBool, group: groupMode, usage: "run the built-in demo MCP server (stdio, or --transport http --port N)"},
	{name: "--conformance-client", kind: kindBool, group: groupMode, hidden: true, usage: "client for the MCP conformance suite (URL last)"},
	{name: "--diff", kind: kindString, group: groupMode, arg: "A.json B.json", usage: "compare two trace files: exit 0 when they match, 1 when they differ (printed), 2 for bad input (flags: --ignore, --format)",
		set: func(*Invocation, string) error {
			return errors.New("--diff takes two trace files and only --ignore and --format: spyglass --diff A.json B.json")
		}},
	{name: "--replay", kind: kindString, group: groupMode, arg: "TRACE.json", usage: "send a trace's requests to the server again and compare the responses: exit 0 all match, 1 something differs, 3 cannot connect",
		set: func(inv *Invocation, v string) error { return setPath(&inv.ReplayFile, "--replay", v) }},
	{name: "--run", kind: kindString, group: groupMode, arg: "COLLECTION.json", usage: "run a collection of saved calls and check their expectations: exit 0 all hold, 1 one fails",
		set: func(inv *Invocation, v string) error { return setPath(&inv.RunFile, "--run", v) }},

	// demo server
	{name: "--port", kind: kindString, group: groupDemo, arg: "N", usage: "port on 127.0.0.1 for --demo-server --transport http (0 picks a free one)",
		set: func(inv *Invocation, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 65535 {
				return fmt.Errorf("--port %q is not a port number; write a number from 0 to 65535 (0 picks a free port)", v)
			}
			inv.Port = n
			return nil
		}},
	{name: "--notes-dir", kind: kindString, group: groupDemo, arg: "DIR", usage: "folder of the demo server's notes file",
		set: func(inv *Invocation, v string) error { return setPath(&inv.NotesDir, "--notes-dir", v) }},

	// --cli
	{name: "--method", kind: kindString, group: groupCLI, arg: "METHOD", usage: "method to call: tools/list, tools/call, resources/read, prompts/get, servers/list, ... or any method with --params-json",
		set: func(inv *Invocation, v string) error {
			if v == "" {
				return fmt.Errorf("--method needs a method name, e.g. --method tools/list")
			}
			inv.Method = v
			return nil
		}},
	{name: "--tool-name", kind: kindString, group: groupCLI, arg: "NAME", usage: "tool to call (tools/call)",
		set: func(inv *Invocation, v string) error { inv.ToolName = v; return nil }},
	{name: "--tool-arg", kind: kindRepeat, group: groupCLI, arg: "KEY=VALUE", usage: "tool argument, parsed against the tool's input schema (repeatable)",
		set: func(inv *Invocation, v string) error { return addArg(&inv.ToolArgs, "--tool-arg", v) }},
	{name: "--tool-args-json", kind: kindString, group: groupCLI, arg: "JSON", usage: "all tool arguments as one JSON object",
		set: func(inv *Invocation, v string) error { return setJSONObject(&inv.ToolArgsJSON, "--tool-args-json", v) }},
	{name: "--uri", kind: kindString, group: groupCLI, arg: "URI", usage: "resource URI (resources/read, resources/subscribe, resources/unsubscribe; for skills/get the URI of the skill's SKILL.md)",
		set: func(inv *Invocation, v string) error { inv.URI = v; return nil }},
	{name: "--prompt-name", kind: kindString, group: groupCLI, arg: "NAME", usage: "prompt to get (prompts/get)",
		set: func(inv *Invocation, v string) error { inv.PromptName = v; return nil }},
	{name: "--prompt-arg", kind: kindRepeat, group: groupCLI, arg: "KEY=VALUE", usage: "prompt argument (repeatable)",
		set: func(inv *Invocation, v string) error { return addArg(&inv.PromptArgs, "--prompt-arg", v) }},
	{name: "--log-level", kind: kindString, group: groupCLI, arg: "LEVEL", usage: "level for logging/setLevel: " + strings.Join(logLevels, ", "),
		set: func(inv *Invocation, v string) error {
			if !slices.Contains(logLevels, v) {
				return fmt.Errorf("--log-level %q is not an MCP logging level; write one of %s", v, strings.Join(logLevels, ", "))
			}
			inv.LogLevel = v
			return nil
		}},
	{name: "--params-json", kind: kindString, group: groupCLI, arg: "JSON", usage: "the whole params object of the request (any method)",
		set: func(inv *Invocation, v string) error { return setJSONObject(&inv.ParamsJSON, "--params-json", v) }},
	{name: "--request-header", kind: kindRepeat, group: groupCLI, arg: `"Name: Value"`, usage: "HTTP header sent with the one --method request only, not the handshake (http/sse servers; repeatable)",
		set: func(inv *Invocation, v string) error { return addHeader(&inv.RequestHeaders, "--request-header", v) }},
	{name: "--format", kind: kindString, group: groupCLI, arg: "text|json", usage: "output: the result pretty-printed (text, default) or one JSON object (json); --run also takes junit",
		set: func(inv *Invocation, v string) error {
			if !slices.Contains(formats, v) && v != "junit" {
				return fmt.Errorf("--format %q: write --format text or --format json", v)
			}
			inv.Format = v
			return nil
		}},
	{name: "--trace", kind: kindString, group: groupCLI, arg: "FILE", usage: "write the session's trace file (JSON)",
		set: func(inv *Invocation, v string) error { return setPath(&inv.Trace, "--trace", v) }},
	{name: "--verbose", kind: kindBool, group: groupCLI, usage: "stream every event to stderr as JSON lines"},
	{name: "--fault", kind: kindString, group: groupCLI, arg: "SPEC", usage: "inject faults into the connection, e.g. drop=out:tools/call or delay=in:200ms,cut=5 (see README)",
		set: func(inv *Invocation, v string) error {
			spec, err := fault.Parse(v)
			if err == nil && len(spec.Rules) == 0 {
				err = errors.New("no rule given")
			}
			if err != nil {
				return fmt.Errorf("--fault %q: %v; write rules like drop=out:tools/call, delay=in:200ms or cut=5, separated by commas", v, err)
			}
			inv.Fault = v
			return nil
		}},
	{name: "--relogin", kind: kindBool, group: groupCLI, usage: "forget the server's stored OAuth tokens (revoking them where allowed) and sign in again"},
	{name: "--no-revoke", kind: kindBool, group: groupCLI, usage: "with --relogin: forget the tokens without revoking them at the authorization server"},
	{name: "--browser", kind: kindString, group: groupCLI, arg: "CMD", usage: "command that opens the OAuth sign-in page (the URL is appended, or replaces %s); default $BROWSER, then xdg-open",
		set: func(inv *Invocation, v string) error {
			if strings.TrimSpace(v) == "" {
				return fmt.Errorf("--browser needs a command, e.g. --browser firefox")
			}
			inv.Browser = v
			return nil
		}},
	{name: "--root", kind: kindRepeat, group: groupCLI, arg: "PATH", usage: "root offered to the server (a path or a file:// URI; repeatable)",
		set: func(inv *Invocation, v string) error {
			if v == "" {
				return fmt.Errorf("--root needs a path, e.g. --root ./project")
			}
			inv.Roots = append(inv.Roots, v)
			return nil
		}},
	{name: "--timeout", kind: kindString, group: groupCLI, arg: "DURATION", usage: "give up after this long, e.g. 30s or 2m",
		set: func(inv *Invocation, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return fmt.Errorf("--timeout %q is not a duration; write e.g. --timeout 30s or --timeout 2m", v)
			}
			inv.Timeout = d
			return nil
		}},
	{name: "--sampling", kind: kindString, group: groupCLI, arg: "POLICY", usage: "answer to the server's sampling requests: decline (default), mock, or mock:TEXT",
		set: func(inv *Invocation, v string) error {
			switch {
			case v == "decline" || v == "mock":
				inv.Sampling = v
			case strings.HasPrefix(v, "mock:"):
				inv.Sampling, inv.SamplingText = "mock", strings.TrimPrefix(v, "mock:")
			default:
				return fmt.Errorf("--sampling %q: write --sampling decline, --sampling mock or --sampling 'mock:reply text'", v)
			}
			return nil
		}},
	{name: "--elicitation", kind: kindString, group: groupCLI, arg: "POLICY", usage: "answer to the server's elicitation requests: decline (default), cancel, or accept (with the schema's defaults)",
		set: func(inv *Invocation, v string) error {
			if !slices.Contains(elicitationMode, v) {
				return fmt.Errorf("--elicitation %q: write --elicitation decline, --elicitation cancel or --elicitation accept", v)
			}
			inv.Elicitation = v
			return nil
		}},
	{name: "--metadata", kind: kindString, group: groupCLI, arg: "JSON", usage: "_meta merged into every request (its keys win over the server's metadata)",
		set: func(inv *Invocation, v string) error { return setJSONObject(&inv.Metadata, "--metadata", v) }},
	{name: "--ref", kind: kindString, group: groupCLI, arg: "prompt:NAME|resource:URI", usage: "what completion/complete completes",
		set: func(inv *Invocation, v string) error {
			kind, rest, _ := strings.Cut(v, ":")
			switch {
			case (kind == "prompt" || kind == "ref/prompt") && rest != "":
				inv.Ref = &CompletionRef{Type: "ref/prompt", Name: rest}
			case (kind == "resource" || kind == "ref/resource") && rest != "":
				inv.Ref = &CompletionRef{Type: "ref/resource", URI: rest}
			default:
				return fmt.Errorf("--ref %q: write --ref prompt:PROMPT_NAME or --ref resource:URI_TEMPLATE", v)
			}
			return nil
		}},
	{name: "--argument", kind: kindString, group: groupCLI, arg: "NAME=VALUE", usage: "the argument being completed and its partial value (completion/complete)",
		set: func(inv *Invocation, v string) error {
			k, val, ok := strings.Cut(v, "=")
			if !ok || k == "" {
				return fmt.Errorf("--argument %q: write --argument NAME=PARTIAL_VALUE, e.g. --argument language=py", v)
			}
			inv.Argument = &KeyValue{k, val}
			return nil
		}},
	{name: "--context-arg", kind: kindRepeat, group: groupCLI, arg: "KEY=VALUE", usage: "an argument already filled in, as context for completion/complete (repeatable)",
		set: func(inv *Invocation, v string) error { return addArg(&inv.ContextArgs, "--context-arg", v) }},
	{name: "--ignore", kind: kindRepeat, group: groupCLI, arg: "PATH", usage: "with --diff, --replay, --run: also ignore this JSON path in every message, e.g. /result/content/0/text or **/requestId (repeatable)",
		set: func(inv *Invocation, v string) error { inv.Ignore = append(inv.Ignore, v); return checkIgnore(v) }},
	{name: "--yes", kind: kindBool, group: groupCLI, usage: "with --replay: also send tool calls of tools that may change something (no readOnlyHint)"},
	{name: "--har", kind: kindString, group: groupCLI, arg: "FILE", usage: "write the HTTP exchanges of an http/sse server as HAR 1.2 (secrets masked)",
		set: func(inv *Invocation, v string) error { return setPath(&inv.HAR, "--har", v) }},

	// information
	{name: "--help", alias: "-h", kind: kindBool, group: groupInfo, usage: "show this help"},
	{name: "--version", kind: kindBool, group: groupInfo, usage: "print the version"},
}

func lookupFlag(name string) *flagDef {
	for i := range flagDefs {
		if flagDefs[i].name == name || flagDefs[i].alias == name {
			return &flagDefs[i]
		}
	}
	return nil
}

func setPath(dst *string, flag, v string) error {
	if v == "" {
		return fmt.Errorf("%s needs a path", flag)
	}
	*dst = v
	return nil
}

func setJSONObject(dst *string, flag, v string) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(v), &m); err != nil || m == nil {
		return fmt.Errorf(`%s must be a JSON object, e.g. %s '{"key": "value"}'`, flag, flag)
	}
	*dst = v
	return nil
}

func addKV(list *[]KeyValue, flag string, kv KeyValue) error {
	for _, e := range *list {
		if strings.EqualFold(e.Key, kv.Key) && (strings.HasSuffix(flag, "header") || e.Key == kv.Key) {
			return fmt.Errorf("%s %s is given twice; give each name once", flag, kv.Key)
		}
	}
	*list = append(*list, kv)
	return nil
}

// addHeader adds a "Name: Value" flag value to list.
func addHeader(list *[]KeyValue, flag, v string) error {
	k, val, ok := strings.Cut(v, ":")
	k = strings.TrimSpace(k)
	if !ok || !httpguts.ValidHeaderFieldName(k) {
		return fmt.Errorf(`%s %q: write %s "Name: Value", e.g. %s "Authorization: Bearer abc123"`, flag, v, flag, flag)
	}
	return addKV(list, flag, KeyValue{k, strings.TrimSpace(val)})
}

func addArg(list *[]KeyValue, flag, v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || k == "" {
		return fmt.Errorf("%s %q: write %s NAME=VALUE, e.g. %s count=3", flag, v, flag, flag)
	}
	return addKV(list, flag, KeyValue{k, val})
}

// ParseArgs parses the command line (without the program name). Flags and
// the positional target may come in any order; "--flag=value" and
// "--flag value" are the same; everything after "--" belongs to the target
// command. It checks each value and the mode rules (which flags work with
// which mode and --method); Source then checks how the server flags
// combine. Errors are written for a person to read.
func ParseArgs(args []string) (*Invocation, error) {
	inv := &Invocation{given: map[string]bool{}}
	var positional, afterDash []string
	dashDash := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			afterDash = args[i+1:]
			dashDash = true
			break
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			positional = append(positional, a)
			continue
		}
		name, val, hasVal := a, "", false
		if strings.HasPrefix(a, "--") {
			name, val, hasVal = strings.Cut(a, "=")
		} else if len(a) > 2 && a[:2] == "-e" {
			name, val, hasVal = "-e", strings.TrimPrefix(a[2:], "="), true
		}
		def := lookupFlag(name)
		if def == nil {
			return nil, unknownFlagError(a, positional)
		}
		canon := def.name
		if inv.given[canon] && def.kind != kindRepeat {
			return nil, fmt.Errorf("%s is given twice; give it once", canon)
		}
		inv.given[canon] = true
		if def.kind == kindBool {
			if hasVal {
				b, err := strconv.ParseBool(val)
				if err != nil {
					return nil, fmt.Errorf("%s takes no value (got %q)", canon, a)
				}
				if !b {
					delete(inv.given, canon)
				}
			}
			continue
		}
		if !hasVal {
			if i+1 >= len(args) || args[i+1] == "--" || (strings.HasPrefix(args[i+1], "--") && lookupFlag(strings.SplitN(args[i+1], "=", 2)[0]) != nil) {
				return nil, fmt.Errorf("%s needs a value: %s %s", canon, canon, def.arg)
			}
			i++
			val = args[i]
		}
		if err := def.set(inv, val); err != nil {
			return nil, err
		}
	}
	inv.Target = append(positional, afterDash...)
	if dashDash && len(inv.Target) == 0 {
		return nil, fmt.Errorf("nothing after --; write the server command there, e.g. spyglass -- node build/index.js")
	}
	if err := inv.checkMode(); err != nil {
		return nil, err
	}
	return inv, nil
}

func unknownFlagError(flag string, positional []string) error {
	cmdline := "node build/index.js"
	if len(positional) > 0 {
		cmdline = strings.Join(positional, " ")
	}
	return fmt.Errorf("unknown flag %s; if it is meant for the server, put the server command after --: spyglass [flags] -- %s %s", flag, cmdline, flag)
}

// given flags of one group, in table order.
func (inv *Invocation) givenIn(groups ...flagGroup) []string {
	var out []string
	for _, f := range flagDefs {
		if inv.given[f.name] && slices.Contains(groups, f.group) {
			out = append(out, f.name)
		}
	}
	return out
}

// checkMode picks the mode and checks that every flag given belongs to it.
func (inv *Invocation) checkMode() error {
	switch {
	case inv.given["--help"]:
		inv.Mode = ModeHelp
		return nil
	case inv.given["--version"]:
		inv.Mode = ModeVersion
		return nil
	}
	inv.Verbose = inv.given["--verbose"]
	inv.Relogin = inv.given["--relogin"]
	inv.NoRevoke = inv.given["--no-revoke"]
	modes := inv.givenIn(groupMode)
	if len(modes) > 1 {
		return fmt.Errorf("%s and %s cannot be used together; choose one", modes[0], modes[1])
	}
	mode := ""
	if len(modes) == 1 {
		mode = modes[0]
	}
	if mode == "--replay" || mode == "--run" {
		inv.Mode = map[string]Mode{"--replay": ModeReplay, "--run": ModeRun}[mode]
		return inv.checkSessionFile(mode)
	}
	if mode != "--cli" {
		if f := inv.givenIn(groupCLI); len(f) > 0 {
			if mode == "" {
				return fmt.Errorf("%s only works with --cli (e.g. spyglass --cli --method tools/list ...)", f[0])
			}
			return fmt.Errorf("%s cannot be combined with %s; it is a --cli flag", f[0], mode)
		}
	}
	if mode != "--demo-server" {
		if f := inv.givenIn(groupDemo); len(f) > 0 {
			return fmt.Errorf("%s only works with --demo-server", f[0])
		}
	}
	switch mode {
	case "":
		inv.Mode = ModeGUI
	case "--cli":
		inv.Mode = ModeCLI
		return inv.checkCLI()
	case "--import":
		inv.Mode = ModeImport
		for _, f := range []string{"--config", "--server", "--transport", "--server-url", "--cwd", "-e", "--header"} {
			if inv.given[f] {
				return fmt.Errorf("--import cannot be combined with %s; --import FILE merges the file's servers into the catalog (choose it with --catalog PATH)", f)
			}
		}
		if len(inv.Target) > 0 {
			return fmt.Errorf("--import takes one file and no server command (got %q); write spyglass --import FILE [--catalog PATH]", strings.Join(inv.Target, " "))
		}
	case "--demo-server":
		inv.Mode = ModeDemoServer
		for _, name := range inv.givenIn(groupShared) {
			if name != "--transport" {
				return fmt.Errorf("--demo-server cannot be combined with %s; it serves the built-in demo server (options: --transport stdio|http, --port N, --notes-dir DIR)", name)
			}
		}
		if inv.Transport == "sse" {
			return fmt.Errorf("--demo-server serves stdio or Streamable HTTP; write --transport stdio or --transport http")
		}
		if inv.given["--port"] && inv.Transport != "http" {
			return fmt.Errorf("--port needs --transport http (the demo server listens on 127.0.0.1:PORT only over HTTP)")
		}
		if len(inv.Target) > 0 {
			return fmt.Errorf("--demo-server takes no server command (got %q)", strings.Join(inv.Target, " "))
		}
	case "--conformance-client":
		inv.Mode = ModeConformance
		if f := inv.givenIn(groupShared); len(f) > 0 {
			return fmt.Errorf("--conformance-client cannot be combined with %s; it takes the server URL only", f[0])
		}
		if len(inv.Target) != 1 || !catalog.ValidURL(inv.Target[0]) {
			return fmt.Errorf("--conformance-client takes one server URL as its last argument: spyglass --conformance-client http://127.0.0.1:PORT/mcp")
		}
		inv.ConformanceURL = inv.Target[0]
	}
	return nil
}

// Method-specific flags of --cli, and the methods they belong to.
var methodFlags = []struct {
	flag    string
	methods []string
}{
	{"--tool-name", []string{"tools/call"}},
	{"--tool-arg", []string{"tools/call"}},
	{"--tool-args-json", []string{"tools/call"}},
	{"--uri", []string{"resources/read", "resources/subscribe", "resources/unsubscribe", "skills/get"}},
	{"--prompt-name", []string{"prompts/get"}},
	{"--prompt-arg", []string{"prompts/get"}},
	{"--log-level", []string{"logging/setLevel"}},
	{"--ref", []string{"completion/complete"}},
	{"--argument", []string{"completion/complete"}},
	{"--context-arg", []string{"completion/complete"}},
}

// Flags each method needs (unless --params-json gives the params).
var methodNeeds = map[string][]string{
	"tools/call":            {"--tool-name"},
	"resources/read":        {"--uri"},
	"resources/subscribe":   {"--uri"},
	"resources/unsubscribe": {"--uri"},
	"skills/get":            {"--uri"},
	"prompts/get":           {"--prompt-name"},
	"logging/setLevel":      {"--log-level"},
	"completion/complete":   {"--ref", "--argument"},
}

// Methods that read the file and never connect.
var localMethods = []string{"servers/list", "servers/show"}

func (inv *Invocation) checkCLI() error {
	if inv.Format == "" {
		inv.Format = "text"
	}
	if inv.Sampling == "" {
		inv.Sampling = "decline"
	}
	if inv.Elicitation == "" {
		inv.Elicitation = "decline"
	}
	if inv.Method == "" {
		return fmt.Errorf("--cli needs --method, e.g. spyglass --cli --method tools/list [server]")
	}
	if err := inv.checkSessionFlags("--cli"); err != nil {
		return err
	}
	for _, mf := range methodFlags {
		if !inv.given[mf.flag] {
			continue
		}
		if !slices.Contains(mf.methods, inv.Method) {
			return fmt.Errorf("%s only works with --method %s (not %s)", mf.flag, strings.Join(mf.methods, " or "), inv.Method)
		}
		if inv.given["--params-json"] {
			return fmt.Errorf("--params-json gives the whole params object; it cannot be combined with %s", mf.flag)
		}
	}
	if inv.given["--no-revoke"] && !inv.given["--relogin"] {
		return fmt.Errorf("--no-revoke only changes what --relogin does; add --relogin, or drop --no-revoke")
	}
	if inv.given["--request-header"] && !inv.given["--method"] {
		return fmt.Errorf("--request-header goes with the one request that --method sends; add --method, or use --header for every request of the connection")
	}
	if inv.given["--tool-arg"] && inv.given["--tool-args-json"] {
		return fmt.Errorf("--tool-arg cannot be combined with --tool-args-json; give the arguments one way")
	}
	if !inv.given["--params-json"] {
		for _, need := range methodNeeds[inv.Method] {
			if !inv.given[need] {
				d := lookupFlag(need)
				return fmt.Errorf("--method %s needs %s %s (or the whole params with --params-json)", inv.Method, need, d.arg)
			}
		}
	}
	if slices.Contains(localMethods, inv.Method) {
		for _, f := range []string{"--params-json", "--trace", "--verbose", "--root", "--timeout", "--sampling", "--elicitation", "--metadata", "--relogin", "--no-revoke", "--browser", "--fault"} {
			if inv.given[f] {
				return fmt.Errorf("%s cannot be combined with --method %s, which reads the server list and does not connect", f, inv.Method)
			}
		}
	}
	return nil
}

// Source resolves which servers the invocation names, reading
// SPYGLASS_CATALOG from the environment. See SourceEnv.
func (inv *Invocation) Source() (*catalog.Source, error) {
	return inv.SourceEnv(os.Getenv)
}

// SourceEnv resolves which servers the invocation names: a writable catalog
// (--catalog, else $SPYGLASS_CATALOG, else the XDG default), a read-only
// config (--config), or one ad-hoc server (a positional command or URL,
// --server-url, --transport). Every combination that would make one flag
// meaningless is an error naming both; nothing is dropped silently.
// getenv reads the environment (os.Getenv in production).
func (inv *Invocation) SourceEnv(getenv func(string) string) (*catalog.Source, error) {
	switch inv.Mode {
	case ModeDemoServer, ModeConformance, ModeHelp, ModeVersion:
		return nil, fmt.Errorf("%s does not read a server list", inv.Mode)
	}
	fileFlag := ""
	switch {
	case inv.Catalog != "" && inv.Config != "":
		return nil, fmt.Errorf("--catalog and --config cannot be used together: --catalog names a writable catalog, --config a read-only file; choose one")
	case inv.Catalog != "":
		fileFlag = "--catalog"
	case inv.Config != "":
		fileFlag = "--config"
	}
	targetURL := len(inv.Target) > 0 && looksLikeURL(inv.Target[0])
	targetWhat := ""
	if len(inv.Target) > 0 {
		if targetURL {
			targetWhat = fmt.Sprintf("a server URL (%s)", inv.Target[0])
		} else {
			targetWhat = fmt.Sprintf("a server command (%s)", strings.Join(inv.Target, " "))
		}
	}
	adhoc := []string{}
	if targetWhat != "" {
		adhoc = append(adhoc, targetWhat)
	}
	if inv.ServerURL != "" {
		adhoc = append(adhoc, "--server-url")
	}
	if inv.Transport != "" {
		adhoc = append(adhoc, "--transport")
	}
	if fileFlag != "" && len(adhoc) > 0 {
		return nil, fmt.Errorf("%s cannot be combined with %s: %s reads servers from a file, %s names one ad-hoc server; choose one", fileFlag, adhoc[0], fileFlag, adhoc[0])
	}
	if err := inv.checkProtocol(); err != nil {
		return nil, err
	}
	if inv.Server != "" && len(adhoc) > 0 {
		return nil, fmt.Errorf("--server cannot be combined with %s: --server selects a server from the catalog or --config file, %s names one ad-hoc server", adhoc[0], adhoc[0])
	}

	if len(adhoc) == 0 {
		// a file source
		src := &catalog.Source{Kind: catalog.SourceCatalog, Server: inv.Server}
		switch {
		case inv.Config != "":
			src.Kind, src.Path = catalog.SourceConfig, inv.Config
		case inv.Catalog != "":
			src.Path = inv.Catalog
		default:
			src.Path = getenv(catalog.EnvCatalog)
			if src.Path == "" {
				src.Path = catalog.DefaultPathFromEnv(getenv)
			}
		}
		for _, f := range []string{"-e", "--header", "--cwd", "--protocol-version", "--protocol-era"} {
			if inv.given[f] && inv.Server == "" {
				return nil, fmt.Errorf("%s with a server file needs --server NAME to say which server it applies to (or give an ad-hoc server instead)", f)
			}
		}
		src.Overrides = inv.overrides()
		return src, nil
	}

	// one ad-hoc server
	srv := &catalog.Server{}
	switch {
	case targetURL && len(inv.Target) > 1:
		return nil, fmt.Errorf("a server URL takes no arguments (got %q); to run a command, give the command instead", strings.Join(inv.Target, " "))
	case targetURL && inv.ServerURL != "":
		return nil, fmt.Errorf("--server-url cannot be combined with a server URL (%s); give the URL once", inv.Target[0])
	case len(inv.Target) > 0 && !targetURL && inv.ServerURL != "":
		return nil, fmt.Errorf("--server-url cannot be combined with a server command (%s); give either a command (stdio) or --server-url (http/sse)", strings.Join(inv.Target, " "))
	}
	u := inv.ServerURL
	if targetURL {
		u = inv.Target[0]
		if !catalog.ValidURL(u) {
			return nil, fmt.Errorf("%q is not a valid server URL; write an absolute http(s) URL, e.g. http://127.0.0.1:3000/mcp", u)
		}
	}
	switch inv.Transport {
	case "stdio":
		if u != "" {
			return nil, fmt.Errorf("--transport stdio cannot be combined with %s; a URL needs --transport http or --transport sse", urlFlag(targetURL))
		}
		if len(inv.Target) == 0 {
			return nil, fmt.Errorf("--transport stdio needs a server command, e.g. spyglass --transport stdio -- node build/index.js")
		}
	case "http", "sse":
		if u == "" {
			if len(inv.Target) > 0 {
				return nil, fmt.Errorf("--transport %s cannot be combined with a server command (%s); it needs --server-url URL", inv.Transport, strings.Join(inv.Target, " "))
			}
			return nil, fmt.Errorf("--transport %s needs --server-url URL, e.g. --server-url http://127.0.0.1:3000/mcp", inv.Transport)
		}
	}
	if u != "" {
		srv.Type, srv.URL = catalog.TypeHTTP, u
		if inv.Transport == "sse" {
			srv.Type = catalog.TypeSSE
		}
		for _, f := range []string{"-e", "--cwd"} {
			if inv.given[f] {
				return nil, fmt.Errorf("%s cannot be combined with %s: %s is for a stdio server (a command), not an http/sse one", f, urlFlag(targetURL), f)
			}
		}
		srv.Headers = toMap(inv.Headers)
	} else {
		if inv.given["--header"] {
			return nil, fmt.Errorf("--header cannot be combined with a server command (%s): headers are for http/sse servers; use -e KEY=VALUE for a stdio server", strings.Join(inv.Target, " "))
		}
		srv.Type, srv.Command, srv.Args = catalog.TypeStdio, inv.Target[0], slices.Clone(inv.Target[1:])
		srv.Env, srv.Cwd = toMap(inv.Env), inv.Cwd
	}
	src := &catalog.Source{Kind: catalog.SourceAdHoc, AdHocName: adHocName(srv), AdHoc: srv}
	src.Overrides.ProtocolVersion, src.Overrides.ProtocolEra = inv.ProtocolVersion, catalog.Era(inv.ProtocolEra)
	return src, nil
}

func urlFlag(targetURL bool) string {
	if targetURL {
		return "a server URL"
	}
	return "--server-url"
}

func (inv *Invocation) overrides() catalog.Overrides {
	return catalog.Overrides{Env: toMap(inv.Env), Headers: toMap(inv.Headers), Cwd: inv.Cwd,
		ProtocolVersion: inv.ProtocolVersion, ProtocolEra: catalog.Era(inv.ProtocolEra)}
}

// checkProtocol refuses a --protocol-version and a --protocol-era that
// contradict each other: a pinned version already fixes the era (2026-07-28
// is modern, every older one legacy), and auto has nothing left to choose.
func (inv *Invocation) checkProtocol() error {
	if inv.ProtocolVersion == "" || inv.ProtocolEra == "" {
		return nil
	}
	era := "legacy"
	if inv.ProtocolVersion >= "2026-07-28" {
		era = "modern"
	}
	if inv.ProtocolEra == era {
		return nil
	}
	return fmt.Errorf("--protocol-version %s and --protocol-era %s contradict each other: %s is a %s version; give only --protocol-version %s, or only --protocol-era %s",
		inv.ProtocolVersion, inv.ProtocolEra, inv.ProtocolVersion, era, inv.ProtocolVersion, inv.ProtocolEra)
}

func toMap(kvs []KeyValue) map[string]string {
	if len(kvs) == 0 {
		return nil
	}
	m := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		m[kv.Key] = kv.Value
	}
	return m
}

// looksLikeURL reports whether a positional target is meant as a URL.
func looksLikeURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// adHocName names an ad-hoc server: the command's base name (with its
// first non-flag argument), or the URL's host.
func adHocName(s *catalog.Server) string {
	if s.Type.IsHTTP() {
		if u, err := url.Parse(s.URL); err == nil && u.Host != "" {
			return u.Host
		}
		return s.URL
	}
	name := filepath.Base(s.Command)
	for _, a := range s.Args {
		if !strings.HasPrefix(a, "-") {
			return name + " " + filepath.Base(a)
		}
	}
	return name
}

// Usage returns the --help text.
func Usage() string {
	var b strings.Builder
	b.WriteString(`Usage:
  spyglass [server flags] [COMMAND [ARGS...] | URL] [-- ARGS...]   open the desktop app
  spyglass --cli --method METHOD [flags] [COMMAND... | URL]        one request from the command line
  spyglass --import FILE [--catalog PATH]                          merge another client's servers
  spyglass --demo-server [--transport stdio|http] [--port N]       serve the built-in demo server
  spyglass --diff A.json B.json [--ignore PATH]... [--format text|json]   compare two traces
  spyglass --replay TRACE.json [server flags] [--trace NEW.json] [--yes]  send a trace again, compare
  spyglass --run COLLECTION.json [server flags] [--format text|json|junit] run saved calls, check them
  spyglass --tap [--trace FILE] [--fault SPEC] -- COMMAND [ARGS...]  sit between a host and a stdio server
  spyglass --tap --listen 127.0.0.1:PORT --upstream URL|--upstream-from FILE [--trace FILE] [--fault SPEC]  ... or an HTTP/SSE server
  spyglass --tap-install CLIENT_CONFIG --server NAME [--trace FILE] [--yes]  have a client launch it through the tap
  spyglass --tap-uninstall CLIENT_CONFIG --server NAME [--yes]     undo --tap-install

Servers come from a writable catalog (--catalog, $` + catalog.EnvCatalog + `, or the default
$XDG_CONFIG_HOME/spyglass/mcp.json), a read-only file (--config), or one ad-hoc server:
a command (stdio) or a URL (--server-url, or a positional http(s) URL). Flags and the
command may come in any order; everything after -- belongs to the command.
With a file, -e, --header and --cwd need --server NAME and apply to that server for this run.
`)
	sections := []struct {
		title string
		group flagGroup
	}{
		{"Server flags", groupShared}, {"Modes", groupMode}, {"--cli flags", groupCLI}, {"--demo-server flags", groupDemo}, {"Other", groupInfo},
	}
	for _, s := range sections {
		fmt.Fprintf(&b, "\n%s:\n", s.title)
		for _, f := range flagDefs {
			if f.group != s.group || f.hidden {
				continue
			}
			name := f.name
			if f.alias != "" {
				name = f.alias + ", " + name
			}
			if f.arg != "" {
				name += " " + f.arg
			}
			fmt.Fprintf(&b, "  %-34s %s\n", name, f.usage)
		}
	}
	return b.String()
}
