package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/internal/demotest"
	"github.com/spyglass-mcp/spyglass/internal/hartest"
)

type harDoc struct {
	Log struct {
		Entries []struct {
			Request struct {
				Method   string `json:"method"`
				URL      string `json:"url"`
				PostData *struct {
					Text string `json:"text"`
				} `json:"postData"`
				Headers []struct{ Name, Value string } `json:"headers"`
			} `json:"request"`
			Response struct {
				Status  int `json:"status"`
				Content struct {
					MimeType string `json:"mimeType"`
					Text     string `json:"text"`
				} `json:"content"`
			} `json:"response"`
			SSE []struct {
				Text string `json:"text"`
			} `json:"_sseEvents"`
		} `json:"entries"`
	} `json:"log"`
}

// TestCLIHAR exports the HTTP exchanges of --cli calls against
// server-everything (Streamable HTTP and legacy SSE) and the demo server
// as HAR 1.2, validated against the schema, with the secret masked and
// the SSE streams' events in it.
func TestCLIHAR(t *testing.T) {
	isolateCLI(t)
	const secret = "sk-HAR-SECRET-77"
	for _, tc := range []struct {
		name  string
		flags []string
	}{
		{"everything http", []string{"--server-url", peers.EverythingHTTP(t, "streamableHttp") + "/mcp"}},
		{"everything sse", []string{"--server-url", peers.EverythingHTTP(t, "sse") + "/sse", "--transport", "sse"}},
		{"demo http", []string{"--server-url", demotest.URL(t, nil)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "out.har")
			args := append([]string{"--cli", "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=over HAR",
				"--header", "Authorization: Bearer " + secret, "--har", file}, tc.flags...)
			if code, out, errs := cli(t, args...); code != exitOK {
				t.Fatalf("exit %d %s %s", code, out, errs)
			}
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			hartest.Validate(t, b)
			if strings.Contains(string(b), secret) {
				t.Fatal("the HAR file holds the bearer token")
			}
			var doc harDoc
			json.Unmarshal(b, &doc)
			var posts, sseEvents int
			echoed := false
			for _, e := range doc.Log.Entries {
				if e.Request.Method == "POST" && e.Request.PostData != nil && strings.Contains(e.Request.PostData.Text, `"jsonrpc"`) {
					posts++
				}
				sseEvents += len(e.SSE)
				for _, ev := range e.SSE {
					echoed = echoed || strings.Contains(ev.Text, "Echo: over HAR")
				}
				echoed = echoed || strings.Contains(e.Response.Content.Text, "Echo: over HAR")
				for _, h := range e.Request.Headers {
					if h.Name == "Authorization" && h.Value != "Bearer ****" && !strings.HasSuffix(h.Value, "****") {
						t.Errorf("Authorization written as %q", h.Value)
					}
				}
			}
			if posts < 3 || !echoed {
				t.Errorf("%d POSTs with JSON-RPC bodies, echo in a response: %v\n%s", posts, echoed, b)
			}
			if tc.name == "everything sse" && sseEvents == 0 {
				t.Errorf("the legacy SSE stream has no events in the HAR")
			}
		})
	}
	// --run and --replay take --har too.
	url := demotest.URL(t, nil)
	coll := writeCollection(t, "", `{"method":"tools/call","params":{"name":"echo","arguments":{"message":"from a collection"}}}`)
	file := filepath.Join(t.TempDir(), "run.har")
	if code, out, errs := cli(t, "--run", coll, "--server-url", url, "--har", file); code != exitAllHold {
		t.Fatalf("--run --har: exit %d %s %s", code, out, errs)
	}
	b, _ := os.ReadFile(file)
	hartest.Validate(t, b)
	if !strings.Contains(string(b), "from a collection") {
		t.Errorf("the collection's call is not in the HAR")
	}

	// A stdio server has no HTTP: a usage error that says so.
	code, _, errs := cli(t, "--cli", "--method", "ping", "--har", filepath.Join(t.TempDir(), "x.har"), "--server", "spyglass-demo")
	if code != exitUsage || !strings.Contains(errs, "stdio server") {
		t.Errorf("--har with stdio: exit %d %s", code, errs)
	}
}
