package cmd

import (
	"path/filepath"
	"testing"

	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
)

// TestCLIMRTR: the CLI answers the input_required rounds of a server on
// the official TypeScript SDK v2 (testdata/tssdk_mrtr.mjs, 2026-07-28 over
// stdio) by its flags, as it answers a legacy server's requests: the
// form with the schema's defaults (--elicitation accept) or declined (the
// default), the sampling round of a two-round call from the mock profile
// (--sampling mock).
func TestCLIMRTR(t *testing.T) {
	isolateCLI(t)
	node := peers.Node(t)
	dist := filepath.Dir(peers.File(t, "@modelcontextprotocol/server/dist/index.mjs"))
	script, err := filepath.Abs(filepath.Join("testdata", "tssdk_mrtr.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	target := []string{"--protocol-era", "modern",
		"-e", "MCP_SERVER_SDK=file://" + filepath.ToSlash(filepath.Join(dist, "index.mjs")),
		"-e", "MCP_SERVER_SDK_STDIO=file://" + filepath.ToSlash(filepath.Join(dist, "stdio.mjs")),
		"--format", "json", "--", node, script}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"declined by default", []string{"--tool-name", "confirm", "--tool-arg", "what=x"}, "not confirmed: decline"},
		{"accepted with defaults", []string{"--tool-name", "confirm", "--tool-arg", "what=x", "--elicitation", "accept"}, `confirmed x: {"ok":true}`},
		{"two rounds", []string{"--tool-name", "plan", "--tool-arg", "topic=the launch", "--elicitation", "accept", "--sampling", "mock"},
			"plan for the launch (everyone): This is a mock LLM response for testing purposes."},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := cli(t, append(append([]string{"--cli", "--method", "tools/call"}, c.args...), target...)...)
			if code != exitOK || toolText(t, result(t, out)) != c.want {
				t.Errorf("exit %d, %s %s; want %q", code, out, errs, c.want)
			}
		})
	}
}
