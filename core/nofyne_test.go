package core

import (
	"os/exec"
	"strings"
	"testing"
)

// TestCoreImportsNoFyne walks the dependency graph of every package under
// core/ and fails if any of them reaches a fyne.io package.
func TestCoreImportsNoFyne(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	pkgs := strings.Fields(string(out))
	if len(pkgs) < 10 {
		t.Fatalf("go list returned too few packages (%d); the walk is broken", len(pkgs))
	}
	for _, p := range pkgs {
		if strings.HasPrefix(p, "fyne.io/") {
			t.Errorf("a package under core/ depends on %s; core must not import Fyne", p)
		}
	}
}
