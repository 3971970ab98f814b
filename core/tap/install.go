package tap

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tailscale/hujson"
)

// Errors Install and Uninstall return (wrapped), for the caller to word.
var (
	// ErrNoServer: the file has no entry of that name under mcpServers
	// (Claude Desktop, Cursor, Claude Code) or servers (VS Code).
	ErrNoServer = errors.New("tap: no such server in the file")
	// ErrNotStdio: the entry has no command (an HTTP or SSE server, for
	// Install; InstallURL takes those).
	ErrNotStdio = errors.New("tap: not a stdio server")
	// ErrNoURL: the entry has no url (InstallURL, UninstallURL).
	ErrNoURL = errors.New("tap: not an HTTP server")
	// ErrTapped: Install found the entry already launched through a tap.
	ErrTapped = errors.New("tap: already tapped")
	// ErrNotTapped: Uninstall found the entry not launched through a tap.
	ErrNotTapped = errors.New("tap: not tapped")
)

// Entry is a server in a client's config file: the launch of a stdio
// server (Command, Args) or the address of an HTTP or SSE one (URL).
type Entry struct {
	// Pointer is the entry's JSON pointer ("/mcpServers/NAME").
	Pointer string
	Command string
	Args    []string
	// URL is the server's url; URLLiteral is its JSON text as written in
	// the file (escapes kept), for putting it back byte for byte.
	URL        string
	URLLiteral string
}

// Tapped reports whether the entry launches its server through a tap
// (its arguments start with --tap and hold the server's command after
// "--"), and returns that command.
func (e Entry) Tapped() (command string, args []string, ok bool) {
	if len(e.Args) == 0 || e.Args[0] != "--tap" {
		return "", nil, false
	}
	i := slices.Index(e.Args, "--")
	if i < 0 || i+1 >= len(e.Args) {
		return "", nil, false
	}
	return e.Args[i+1], e.Args[i+2:], true
}

// FindEntry finds server name's entry in a client's config file (JSON
// or JSONC).
func FindEntry(data []byte, name string) (Entry, hujson.Value, error) {
	v, err := hujson.Parse(data)
	if err != nil {
		return Entry{}, v, fmt.Errorf("tap: read the config file: %w", err)
	}
	esc := strings.NewReplacer("~", "~0", "/", "~1").Replace(name)
	for _, top := range []string{"mcpServers", "servers"} {
		ptr := "/" + top + "/" + esc
		ev := v.Find(ptr)
		if ev == nil {
			continue
		}
		std := ev.Clone()
		std.Standardize()
		var m struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
			URL     string   `json:"url"`
		}
		if err := json.Unmarshal(std.Pack(), &m); err != nil {
			return Entry{}, v, fmt.Errorf("tap: server %q: %w", name, err)
		}
		e := Entry{Pointer: ptr, Command: m.Command, Args: m.Args, URL: m.URL}
		if m.Command == "" && m.URL != "" {
			if lit, ok := v.Find(ptr + "/url").Value.(hujson.Literal); ok {
				e.URLLiteral = string(lit)
			}
		}
		if m.Command == "" && m.URL == "" {
			return Entry{}, v, fmt.Errorf("tap: server %q: %w", name, ErrNotStdio)
		}
		return e, v, nil
	}
	return Entry{}, v, fmt.Errorf("tap: server %q: %w", name, ErrNoServer)
}

// Install returns the config file data with server name launched through
// the tap: command becomes tapCommand, and args become tapArgs, "--",
// then the server's own command and arguments. Everything else in the
// file (comments, layout, the original arguments as written, other
// entries) is kept byte for byte.
func Install(data []byte, name, tapCommand string, tapArgs []string) ([]byte, error) {
	e, v, err := FindEntry(data, name)
	if err != nil {
		return nil, err
	}
	if e.Command == "" {
		return nil, fmt.Errorf("tap: server %q: %w", name, ErrNotStdio)
	}
	if _, _, ok := e.Tapped(); ok {
		return nil, fmt.Errorf("tap: server %q: %w", name, ErrTapped)
	}
	front := append(append([]string{"--tap"}, tapArgs...), "--", e.Command)
	ops := []patchOp{{"add", e.Pointer + "/command", tapCommand}}
	if v.Find(e.Pointer+"/args") == nil {
		ops = append(ops, patchOp{"add", e.Pointer + "/args", front})
	} else {
		// Inserted before the original arguments, which stay as written.
		for i, a := range front {
			ops = append(ops, patchOp{"add", fmt.Sprintf("%s/args/%d", e.Pointer, i), a})
		}
	}
	return patch(v, ops)
}

// Uninstall undoes Install: the entry launches its server directly
// again, with the command and arguments that follow "--".
func Uninstall(data []byte, name string) ([]byte, error) {
	e, v, err := FindEntry(data, name)
	if err != nil {
		return nil, err
	}
	cmd, _, ok := e.Tapped()
	if !ok {
		return nil, fmt.Errorf("tap: server %q: %w", name, ErrNotTapped)
	}
	ops := []patchOp{{"replace", e.Pointer + "/command", cmd}}
	for range slices.Index(e.Args, "--") + 2 {
		ops = append(ops, patchOp{Op: "remove", Path: e.Pointer + "/args/0"})
	}
	return patch(v, ops)
}

// InstallURL returns the config file data with server name's url set to
// tapURL (the HTTP tap's address), everything else kept byte for byte.
// The caller keeps the entry's URLLiteral (FindEntry) to give it back
// with UninstallURL, and runs the tap: a client cannot start an HTTP
// tap itself.
func InstallURL(data []byte, name, tapURL string) ([]byte, error) {
	e, v, err := FindEntry(data, name)
	if err != nil {
		return nil, err
	}
	if e.URL == "" {
		return nil, fmt.Errorf("tap: server %q: %w", name, ErrNoURL)
	}
	if e.URL == tapURL {
		return nil, fmt.Errorf("tap: server %q: %w", name, ErrTapped)
	}
	return patch(v, []patchOp{{"replace", e.Pointer + "/url", tapURL}})
}

// UninstallURL undoes InstallURL: the entry's url is literal again (the
// JSON text InstallURL's caller kept, a quoted string).
func UninstallURL(data []byte, name, literal string) ([]byte, error) {
	e, v, err := FindEntry(data, name)
	if err != nil {
		return nil, err
	}
	if e.URL == "" {
		return nil, fmt.Errorf("tap: server %q: %w", name, ErrNoURL)
	}
	var u string
	if err := json.Unmarshal([]byte(literal), &u); err != nil {
		return nil, fmt.Errorf("tap: server %q: the original url %s: %w", name, literal, err)
	}
	return patch(v, []patchOp{{"replace", e.Pointer + "/url", json.RawMessage(literal)}})
}

// patchOp is one RFC 6902 JSON Patch operation.
type patchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value,omitempty"`
}

func patch(v hujson.Value, ops []patchOp) ([]byte, error) {
	var p bytes.Buffer
	enc := json.NewEncoder(&p)
	enc.SetEscapeHTML(false) // a url's & stays &, not \u0026
	if err := enc.Encode(ops); err != nil {
		return nil, err
	}
	if err := v.Patch(p.Bytes()); err != nil {
		return nil, fmt.Errorf("tap: edit the entry: %w", err)
	}
	return v.Pack(), nil
}
