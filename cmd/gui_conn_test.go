package cmd

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/ui"
)

// TestUIState maps every session state to the card's state of that name;
// a state added to core/session without a row here fails.
func TestUIState(t *testing.T) {
	want := map[session.State]ui.ConnState{
		session.StateDisconnected: ui.StateDisconnected,
		session.StateConnecting:   ui.StateConnecting,
		session.StateConnected:    ui.StateConnected,
		session.StateFailed:       ui.StateFailed,
		session.StateAuthorizing:  ui.StateAuthorizing,
	}
	for from, w := range want {
		if got := uiState(from); got != w {
			t.Errorf("uiState(%q) = %q, want %q", from, got, w)
		}
	}
	if got := uiState("new-one"); got != ui.StateDisconnected {
		t.Errorf("an unknown state shows as %q, want disconnected", got)
	}
	for _, s := range sessionStates(t) {
		if _, ok := want[s]; !ok {
			t.Errorf("session state %q has no row here (and maybe no case in uiState)", s)
		}
	}
}

// sessionStates reads every constant of type session.State from
// core/session's source.
func sessionStates(t *testing.T) []session.State {
	files, err := filepath.Glob("../core/session/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no core/session sources: %v", err)
	}
	var out []session.State
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "State" {
				return true
			}
			for _, v := range vs.Values {
				if lit, ok := v.(*ast.BasicLit); ok {
					s, _ := strconv.Unquote(lit.Value)
					out = append(out, session.State(s))
				}
			}
			return true
		})
	}
	if len(out) < 5 {
		t.Fatalf("found only %v in core/session", out)
	}
	return out
}
