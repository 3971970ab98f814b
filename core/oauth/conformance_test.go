package oauth_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/testpeers"
)

// conformanceExpectedFailures are the auth scenarios of
// @modelcontextprotocol/conformance@0.1.16 this package does not pass.
var conformanceExpectedFailures = map[string]string{}

// TestConformanceAuthScenarios runs every auth scenario of the MCP
// conformance suite, one at a time, against internal/confclient (core/oauth
// wired into core/wire and core/session) and judges each by the suite's
// exit status (a failure, a warning or a time-out is non-zero).
func TestConformanceAuthScenarios(t *testing.T) {
	if testing.Short() {
		t.Skip("the conformance suite takes a while; not in -short")
	}
	node := testpeers.Node22(t)
	suite := testpeers.File(t, "@modelcontextprotocol/conformance/dist/index.js")
	bin := filepath.Join(t.TempDir(), "confclient")
	if out, err := exec.Command("go", "build", "-o", bin, "./internal/confclient").CombinedOutput(); err != nil {
		t.Fatalf("build confclient: %v\n%s", err, out)
	}
	out, err := exec.Command(node, suite, "list", "--client").Output()
	if err != nil {
		t.Fatalf("conformance list: %v", err)
	}
	var scenarios []string
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(strings.TrimSpace(line))
		if len(f) >= 2 && f[0] == "-" && strings.HasPrefix(f[1], "auth/") {
			scenarios = append(scenarios, f[1])
		}
	}
	if len(scenarios) < 20 {
		t.Fatalf("the suite listed %d auth scenarios:\n%s", len(scenarios), out)
	}
	for _, sc := range scenarios {
		t.Run(strings.TrimPrefix(sc, "auth/"), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, suite, "client", "--command", bin, "--scenario", sc)
			cmd.Env = os.Environ()
			log, err := cmd.CombinedOutput()
			reason, expectFail := conformanceExpectedFailures[sc]
			switch {
			case err != nil && !expectFail:
				t.Errorf("scenario %s failed: %v\n%s", sc, err, tail(string(log), 4000))
			case err == nil && expectFail:
				t.Errorf("scenario %s passes now; take it off conformanceExpectedFailures (%s)", sc, reason)
			}
		})
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
