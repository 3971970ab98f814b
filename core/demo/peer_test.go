package demo

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
)

// inspectorCLI is the entry point of @modelcontextprotocol/inspector's CLI,
// a client nobody on this team wrote.
const inspectorCLI = "@modelcontextprotocol/inspector/clients/launcher/build/index.js"

// inspect runs `mcp-inspector --cli args...` and decodes its JSON output.
func inspect(t *testing.T, args ...string) map[string]any {
	t.Helper()
	node := peers.Node(t)
	cli := peers.File(t, inspectorCLI)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{cli, "--cli"}, args...)...)
	home := t.TempDir() // the inspector writes ~/.mcp-inspector
	cmd.Env = append(os.Environ(), "HOME="+home, "MCP_CATALOG_PATH="+home+"/mcp.json")
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("inspector %v: %v\n%s%s", args, err, out, stderr)
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("inspector %v printed %q", args, out)
	}
	return v
}

// TestInspectorStdio: the reference MCP client lists the demo's tools with
// their schemas intact, calls one and reads a resource over stdio.
func TestInspectorStdio(t *testing.T) {
	dir := t.TempDir()
	server := []string{"-e", serveEnv + "=stdio", "-e", NotesEnv + "=" + dir}
	target := []string{"--", os.Args[0], "-test.run=^$"}
	run := func(args ...string) map[string]any {
		return inspect(t, append(append(append([]string{}, server...), args...), target...)...)
	}

	tools := run("--method", "tools/list")
	b, _ := json.Marshal(tools)
	for _, want := range []string{ToolFlakyWrite, ToolSlowTask, `"$defs"`, `"oneOf"`, `"enumNames"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("tools/list lacks %s", want)
		}
	}
	echo := run("--method", "tools/call", "--tool-name", ToolEcho, "--tool-arg", "message=from the inspector")
	if b, _ := json.Marshal(echo); !strings.Contains(string(b), "Echo: from the inspector") {
		t.Errorf("echo: %s", b)
	}
	readme := run("--method", "resources/read", "--uri", ReadmeURI)
	if b, _ := json.Marshal(readme); !strings.Contains(string(b), "Spyglass demo server") {
		t.Errorf("readme: %s", b)
	}
}

// TestInspectorHTTP: the same client over Streamable HTTP gets structured
// content.
func TestInspectorHTTP(t *testing.T) {
	peers.Node(t)
	peers.File(t, inspectorCLI)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serveEnv+"=http", NotesEnv+"="+t.TempDir())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url := strings.TrimSpace(line)
	w := inspect(t, url, "--method", "tools/call", "--tool-name", ToolWeather, "--tool-arg", "city=Oslo")
	sc, _ := w["structuredContent"].(map[string]any)
	if sc["city"] != "Oslo" {
		t.Errorf("structuredContent: %v", w)
	}
}
