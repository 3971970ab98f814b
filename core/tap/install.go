package tap

import (
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
	// ErrNotStdio: the entry has no command (an HTTP or SSE server).
	ErrNotStdio = errors.New("tap: not a stdio server")
	// ErrTapped: Install found the entry already launched through a tap.
	ErrTapped = errors.New("tap: already tapped")
	// ErrNotTapped: Uninstall found the entry not launched through a tap.
	ErrNotTapped = errors.New("tap: not tapped")
)

// Entry is the launch of a stdio server in a client's config file.
type Entry struct {
	// Pointer is the entry's JSON pointer ("/mcpServers/NAME").
	Pointer string
	Command string
	Args    []string
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
		}
		if err := json.Unmarshal(std.Pack(), &m); err != nil {
			return Entry{}, v, fmt.Errorf("tap: server %q: %w", name, err)
		}
		if m.Command == "" {
			return Entry{}, v, fmt.Errorf("tap: server %q: %w", name, ErrNotStdio)
		}
		return Entry{Pointer: ptr, Command: m.Command, Args: m.Args}, v, nil
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

// patchOp is one RFC 6902 JSON Patch operation.
type patchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value,omitempty"`
}

func patch(v hujson.Value, ops []patchOp) ([]byte, error) {
	p, err := json.Marshal(ops)
	if err != nil {
		return nil, err
	}
	if err := v.Patch(p); err != nil {
		return nil, fmt.Errorf("tap: edit the entry: %w", err)
	}
	return v.Pack(), nil
}
