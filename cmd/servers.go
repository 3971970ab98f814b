package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"strings"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/redact"
)

// Exit codes used by servers/list, servers/show and --import (the same
// numbers as the rest of --cli).
const (
	catalogExitOK    = 0
	catalogExitFail  = 1 // the catalog could not be written
	catalogExitUsage = 2 // bad flags, bad file, unknown server
)

// runServers runs `--cli --method servers/list` and `servers/show`: it reads
// the source (creating and seeding a missing catalog, like every surface),
// never connects, and prints the servers as text or, with --format json,
// one JSON object {"result": {...}} on stdout. It returns the exit code.
func runServers(inv *Invocation, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "spyglass: %s\n", explainCatalogError(err))
		return catalogExitUsage
	}
	src, err := inv.Source()
	if err != nil {
		return fail(err)
	}
	if inv.Method == "servers/list" {
		for _, f := range []string{"-e", "--header", "--cwd"} {
			if inv.Given(f) {
				return fail(fmt.Errorf("%s cannot be combined with --method servers/list, which lists the file as written; use servers/show --server NAME to see a server with it", f))
			}
		}
	}
	cat, created, err := src.Open()
	var invalid *catalog.InvalidError
	if cat == nil || (err != nil && !errors.As(err, &invalid)) {
		return fail(err)
	}
	if created {
		fmt.Fprintf(stderr, "spyglass: created %s with the demo and sample servers\n", src.Path)
	}
	switch inv.Method {
	case "servers/list":
		return listServers(inv, src, cat, stdout, stderr)
	case "servers/show":
		return showServer(inv, src, cat, stdout, stderr)
	}
	return fail(fmt.Errorf("runServers: unexpected method %q", inv.Method))
}

// sourceInfo describes the source in JSON output.
type sourceInfo struct {
	Kind     string `json:"kind"` // catalog, config, ad-hoc
	Path     string `json:"path,omitempty"`
	ReadOnly bool   `json:"readOnly"`
}

func infoOf(src *catalog.Source, cat *catalog.Catalog) sourceInfo {
	return sourceInfo{Kind: src.Kind.String(), Path: src.Path, ReadOnly: cat.ReadOnly()}
}

func (s sourceInfo) text() string {
	switch s.Kind {
	case "catalog":
		return s.Path
	case "config":
		return s.Path + " (read-only)"
	}
	return "the command line (ad-hoc server)"
}

// serverItem is one server in JSON output: the entry as the catalog holds
// it (defaults left out, secrets masked), its name and its problem if any.
type serverItem struct {
	Name    string          `json:"name"`
	Server  json.RawMessage `json:"server"`
	Problem string          `json:"problem,omitempty"`
}

func listServers(inv *Invocation, src *catalog.Source, cat *catalog.Catalog, stdout, stderr io.Writer) int {
	names := cat.Names()
	if inv.Server != "" {
		if cat.Find(inv.Server) < 0 {
			fmt.Fprintf(stderr, "spyglass: %s\n", explainCatalogError(&catalog.EntryError{File: cat.Path(), Server: inv.Server, Err: catalog.ErrNotFound, Allowed: names}))
			return catalogExitUsage
		}
		names = []string{inv.Server}
	}
	if inv.Format == "json" {
		items := []serverItem{}
		for _, n := range names {
			s, _ := cat.Get(n)
			it := serverItem{Name: n, Server: maskedJSON(s)}
			if p := cat.Problem(n); p != nil {
				it.Problem = explainCatalogError(p)
			}
			items = append(items, it)
		}
		return writeJSONResult(stdout, map[string]any{"source": infoOf(src, cat), "servers": items})
	}
	fmt.Fprintf(stdout, "Servers in %s:\n", infoOf(src, cat).text())
	if len(names) == 0 {
		fmt.Fprintln(stdout, "  (none)")
	}
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		s, _ := cat.Get(n)
		line := fmt.Sprintf("  %-*s  %-5s  %s", width, n, s.Type, target(s))
		if p := cat.Problem(n); p != nil {
			line += "\n    problem: " + explainCatalogError(p)
		}
		fmt.Fprintln(stdout, strings.TrimRight(line, " "))
	}
	for _, w := range cat.Warnings() {
		if inv.Server == "" || w.Server == inv.Server {
			fmt.Fprintf(stderr, "warning: %s\n", w)
		}
	}
	return catalogExitOK
}

func showServer(inv *Invocation, src *catalog.Source, cat *catalog.Catalog, stdout, stderr io.Writer) int {
	name, s, err := src.Resolve(cat)
	problem := ""
	if err != nil {
		var ee *catalog.EntryError
		if name == "" || !errors.As(err, &ee) || ee.Server != name || errors.Is(err, catalog.ErrNotFound) {
			fmt.Fprintf(stderr, "spyglass: %s\n", explainCatalogError(err))
			return catalogExitUsage
		}
		problem = explainCatalogError(err) // show a broken entry, with its problem
	}
	if inv.Format == "json" {
		res := map[string]any{
			"source":    infoOf(src, cat),
			"name":      name,
			"server":    maskedJSON(s),
			"effective": effective(s),
		}
		if problem != "" {
			res["problem"] = problem
		}
		return writeJSONResult(stdout, res)
	}
	fmt.Fprintf(stdout, "%s  (from %s)\n", name, infoOf(src, cat).text())
	var pretty bytes.Buffer
	json.Indent(&pretty, maskedJSON(s), "", "  ")
	fmt.Fprintln(stdout, pretty.String())
	if s.Type == catalog.TypeStdio && catalog.IsSelf(s.Command, s.Args) {
		if exe, err := catalog.ResolveCommand(s.Command, s.Args); err == nil {
			fmt.Fprintf(stdout, "runs: %s %s (Spyglass's own built-in demo server)\n", exe, strings.Join(s.Args, " "))
		}
	}
	fmt.Fprintln(stdout, "settings in force (defaults included):")
	for _, kv := range effective(s) {
		fmt.Fprintf(stdout, "  %-26s %v\n", kv.Key, kv.Value)
	}
	if problem != "" {
		fmt.Fprintf(stdout, "problem: %s\n", problem)
	}
	for _, w := range cat.Warnings() {
		if w.Server == name {
			fmt.Fprintf(stderr, "warning: %s\n", w)
		}
	}
	return catalogExitOK
}

// effectiveSetting is one Inspector-specific setting with its value in force.
type effectiveSetting struct {
	Key   string `json:"key"`
	Value any    `json:"value"`
}

func effective(s catalog.Server) []effectiveSetting {
	version := s.ProtocolVersion
	if version == "" {
		version = "(from protocolEra)"
	}
	timeout := func(ms int64) any {
		if ms == 0 {
			return "default"
		}
		return ms
	}
	return []effectiveSetting{
		{"protocolVersion", version},
		{"protocolEra", string(s.EffectiveEra())},
		{"modernLogLevel", s.EffectiveModernLogLevel()},
		{"connectionTimeout", timeout(s.ConnectionTimeout)},
		{"requestTimeout", timeout(s.RequestTimeout)},
		{"taskTtl", s.TaskTTLOrDefault()},
		{"autoRefreshOnListChanged", s.AutoRefreshOnListChanged},
		{"paginatedLists", s.PaginatedLists},
		{"maxFetchRequests", s.MaxFetchRequestsOrDefault()},
		{"oauth.requestRefreshToken", s.OAuth.RequestsRefreshToken()},
		{"oauth.revokeOnClear", s.OAuth.RevokesOnClear()},
	}
}

// target is a one-line summary of how a server is reached, secrets masked.
func target(s catalog.Server) string {
	if s.Type.IsHTTP() {
		return redact.URL(s.URL)
	}
	parts := []string{shellQuote(s.Command)}
	for _, a := range redact.Args(s.Args) {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// maskedJSON renders a server entry for display with the secrets of its
// env, headers, arguments and URL masked (redact's policy; clientSecret
// is never rendered at all).
func maskedJSON(s catalog.Server) json.RawMessage {
	s = s.Clone()
	for _, m := range []map[string]string{s.Env, s.Headers} {
		for k, v := range m {
			if v != "" && redact.Name(k) {
				m[k] = redact.Mask
			}
		}
	}
	if len(s.Args) > 0 {
		s.Args = redact.Args(s.Args)
	}
	s.URL = redact.URL(s.URL)
	b, _ := json.Marshal(s)
	return b
}

func writeJSONResult(w io.Writer, result any) int {
	b, err := json.Marshal(map[string]any{"result": result})
	if err != nil {
		return catalogExitFail
	}
	fmt.Fprintf(w, "%s\n", b)
	return catalogExitOK
}

// explainCatalogError words a catalog problem for a person, saying what to
// write instead where there is an answer.
func explainCatalogError(err error) string {
	var syn *catalog.SyntaxError
	var inv *catalog.InvalidError
	var ee *catalog.EntryError
	var conflict *catalog.ConflictError
	var ov *catalog.OverrideError
	var pe *fs.PathError
	var link *catalog.LinkError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &syn):
		return fmt.Sprintf("%s:%d:%d: not valid JSON (%s); fix the file there (nothing was changed)", orInput(syn.File), syn.Line, syn.Column, syn.Msg)
	case errors.As(err, &inv):
		if len(inv.Problems) == 1 {
			return explainCatalogError(inv.Problems[0])
		}
		lines := make([]string, len(inv.Problems))
		for i, p := range inv.Problems {
			lines[i] = "  " + explainCatalogError(p)
		}
		return fmt.Sprintf("%d problems in %s:\n%s", len(inv.Problems), orInput(inv.File), strings.Join(lines, "\n"))
	case errors.As(err, &conflict):
		return fmt.Sprintf("%s changed on disk while Spyglass was saving it; nothing was written — run the command again", conflict.Path)
	case errors.As(err, &ov):
		switch ov.What {
		case "env":
			return fmt.Sprintf("-e sets the environment of a stdio server, but %q is %s; use --header \"Name: Value\" for an http/sse server", ov.Server, ov.Type)
		case "cwd":
			return fmt.Sprintf("--cwd is the working directory of a stdio server, but %q is %s", ov.Server, ov.Type)
		default:
			return fmt.Sprintf("--header is for http/sse servers, but %q is %s; use -e KEY=VALUE for a stdio server", ov.Server, ov.Type)
		}
	case errors.Is(err, catalog.ErrReadOnly):
		return "this file was opened read-only (--config) and is never written; use --catalog PATH for a file Spyglass may change"
	case errors.As(err, &ee):
		return explainEntryError(ee)
	case errors.As(err, &link):
		flag := "--catalog"
		if link.ReadOnly {
			flag = "--config"
		}
		return fmt.Sprintf("%s is a symbolic link to %s, which does not exist; create that file or give %s the path of an existing one", link.Path, link.Target, flag)
	case errors.Is(err, catalog.ErrNotRegular):
		return fmt.Sprintf("%s; a server list must be a regular file (a FIFO or device could be read forever)", err)
	case errors.Is(err, catalog.ErrTooLarge):
		return fmt.Sprintf("%s; a server list is never that big — is it the right file?", err)
	case errors.Is(err, fs.ErrNotExist) && errors.As(err, &pe):
		return fmt.Sprintf("%s does not exist (a --config file is never created; use --catalog PATH to have Spyglass create and seed one)", pe.Path)
	}
	return err.Error()
}

func orInput(file string) string {
	if file == "" {
		return "<input>"
	}
	return file
}

func explainEntryError(e *catalog.EntryError) string {
	where := ""
	if e.File != "" {
		where = e.File + ": "
	}
	if e.Server != "" {
		where += fmt.Sprintf("server %q: ", e.Server)
	}
	field := e.Field
	switch {
	case errors.Is(e, catalog.ErrUnknownType):
		if e.Value == "" {
			return where + `no "type", "command" or "url"; write "type": "stdio" with a "command", or "type": "http" (or "sse") with a "url"`
		}
		return where + fmt.Sprintf(`unknown "type" %s; write "type": "stdio" (a command), "http" (Streamable HTTP) or "sse" (legacy SSE)`, e.Value)
	case errors.Is(e, catalog.ErrMissingCommand):
		return where + `a stdio server needs a "command", e.g. "command": "node", "args": ["build/index.js"]`
	case errors.Is(e, catalog.ErrMissingURL):
		return where + `an http/sse server needs a "url", e.g. "url": "http://127.0.0.1:3000/mcp"`
	case errors.Is(e, catalog.ErrInvalidURL):
		return where + fmt.Sprintf(`%q is %s, not an absolute http(s) URL; write e.g. "https://api.example.com/mcp"`, field, e.Value)
	case errors.Is(e, catalog.ErrInvalidValue) && field == "":
		return where + fmt.Sprintf(`the entry is %s, not an object; write {"type": "stdio", "command": "..."} or {"type": "http", "url": "..."}`, e.Value)
	case errors.Is(e, catalog.ErrInvalidValue) && len(e.Allowed) > 0:
		return where + fmt.Sprintf("%q is %s; write one of %s", field, e.Value, strings.Join(e.Allowed, ", "))
	case errors.Is(e, catalog.ErrInvalidValue):
		return where + fmt.Sprintf("%q has the wrong value %s; %s", field, e.Value, fieldHint(field))
	case errors.Is(e, catalog.ErrDuplicateName):
		return where + "the name appears twice in the file; rename one of them"
	case errors.Is(e, catalog.ErrInvalidName):
		return where + "a server has an empty name; give it a name"
	case errors.Is(e, catalog.ErrShape):
		if e.Field != "" {
			return where + fmt.Sprintf("%q is %s, not an object of servers", e.Field, e.Value)
		}
		return where + `no server list here; expected {"mcpServers": {"NAME": {...}}} (or VS Code's {"servers": {...}})`
	case errors.Is(e, catalog.ErrNotFound):
		return where + fmt.Sprintf("no such server; the file has: %s", listOrNone(e.Allowed))
	case errors.Is(e, catalog.ErrAmbiguous):
		return where + fmt.Sprintf("several servers; choose one with --server NAME (%s)", listOrNone(e.Allowed))
	case errors.Is(e, catalog.ErrNoServers):
		return where + "no servers in the file; add one, or name a server on the command line"
	case errors.Is(e, catalog.ErrExists):
		return where + "a server of that name already exists"
	}
	return e.Error()
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// fieldHint says what a field takes.
func fieldHint(field string) string {
	switch field {
	case "args":
		return `write a list of strings, e.g. ["build/index.js", "--verbose"]`
	case "env", "headers", "oauth.authorizationParams":
		return `write an object of strings, e.g. {"NAME": "value"}`
	case "roots":
		return `write a list like [{"uri": "file:///path", "name": "project"}]`
	case "metadata":
		return `write a JSON object, e.g. {"tenant": "acme"}`
	case "advertisedExtensions", "experimentalCapabilities", "oauth":
		return "write a JSON object"
	case "connectionTimeout", "requestTimeout", "taskTtl", "maxFetchRequests":
		return "write a whole number of milliseconds (0 or more)"
	case "autoRefreshOnListChanged", "paginatedLists", "oauth.requestRefreshToken", "oauth.revokeOnClear", "oauth.enterpriseManaged":
		return "write true or false"
	case "oauth.scopes":
		return `write a space-separated string, e.g. "read write"`
	}
	return "write a string"
}
