package cmd

import (
	"path/filepath"
	"strings"
	"testing"

	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
)

// TestCLISkills runs --method skills/list and skills/get against skills
// served by the official TypeScript SDK v2's Skills extension
// (core/session/testdata/tssdk_skills_server.mjs), and refuses them for a
// server that does not offer the extension (server-everything).
func TestCLISkills(t *testing.T) {
	isolateCLI(t)
	node := peers.Node(t)
	dist := filepath.Dir(peers.File(t, "@modelcontextprotocol/server/dist/index.mjs"))
	t.Setenv("MCP_SERVER_SDK", "file://"+filepath.Join(dist, "index.mjs"))
	t.Setenv("MCP_SERVER_SDK_STDIO", "file://"+filepath.Join(dist, "stdio.mjs"))
	t.Setenv("MCP_SERVER_SDK_SKILLS", "file://"+filepath.Join(dist, "ext", "skills", "index.mjs"))
	script, err := filepath.Abs(filepath.Join("..", "core", "session", "testdata", "tssdk_skills_server.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	for _, era := range []string{"modern", "legacy"} {
		t.Run(era, func(t *testing.T) {
			code, out, errs := cli(t, "--cli", "--protocol-era", era, "--method", "skills/list", "--format", "json", "--", node, script)
			if code != exitOK || !strings.Contains(out, `"uri":"skill://pdf-processing/SKILL.md"`) || !strings.Contains(out, `"digest":"sha256:`) {
				t.Fatalf("skills/list: exit %d\n%s\n%s", code, out, errs)
			}
			if era == "modern" && !strings.Contains(out, `"ttlMs":42000`) {
				t.Errorf("skills/list lacks the cache hint: %s", out)
			}
			code, out, errs = cli(t, "--cli", "--protocol-era", era, "--method", "skills/get", "--uri", "skill://pdf-processing/SKILL.md", "--format", "json", "--", node, script)
			if code != exitOK || !strings.Contains(out, `"skill":{`) || !strings.Contains(out, `references/FORMS.md`) {
				t.Fatalf("skills/get: exit %d\n%s\n%s", code, out, errs)
			}
			code, _, errs = cli(t, "--cli", "--protocol-era", era, "--method", "skills/get", "--uri", "skill://nothing/SKILL.md", "--", node, script)
			if code != exitRPC || !strings.Contains(errs, "-32602") {
				t.Fatalf("skills/get of an unserved skill: exit %d, want %d with -32602: %s", code, exitRPC, errs)
			}
		})
	}
	code, _, errs := cli(t, "--cli", "--method", "skills/get", "--", node, script)
	if code != exitUsage || !strings.Contains(errs, "--uri") {
		t.Errorf("skills/get without --uri: exit %d: %s", code, errs)
	}
	code, _, errs = cli(t, "--cli", "--method", "skills/list", "--", node, peers.File(t, peers.Everything))
	if code != exitUsage || !strings.Contains(errs, "does not offer skills") {
		t.Errorf("a server without skills: exit %d: %s", code, errs)
	}
}
