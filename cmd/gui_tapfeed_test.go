package cmd

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/appsock"
	"github.com/spyglass-mcp/spyglass/core/events"
)

// TestGUITapFeed: a real `spyglass --tap` between a host (this test, on its
// pipes) and the demo server feeds the open window over core/appsock: the
// window lists the tap as a session of its own while it runs, the host's
// request and the server's answer arrive in the log paired, and when the
// host closes the tap the entry says the tap ended, keeping what it got.
func TestGUITapFeed(t *testing.T) {
	h := newGUIHarness(t)
	runtime, err := os.MkdirTemp("", "tapfeed") // short: a socket path has ~100 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(runtime) })
	sock, err := appsock.Listen(filepath.Join(runtime, "spyglass", "app.sock"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sock.Close() })
	go sock.Serve(func(m appsock.Message) (appsock.Reply, func(io.Reader)) { return h.be.handOver(h.w, m) })

	self, _ := os.Executable()
	host := exec.Command(self, "--tap", "--name", "tapped-demo", "--", self, "--demo-server")
	host.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+runtime)
	stdin, _ := host.StdinPipe()
	stdout, _ := host.StdoutPipe()
	var stderr strings.Builder
	host.Stderr = &stderr
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewReader(stdout)
	send := func(line string) { io.WriteString(stdin, line+"\n") }
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"host","version":"1"}}}`)
	if l, err := out.ReadString('\n'); err != nil || !strings.Contains(l, `"id":1`) {
		t.Fatalf("initialize through the tap: %q %v\n%s", l, err, stderr.String())
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if l, err := out.ReadString('\n'); err != nil || !strings.Contains(l, `"id":2`) || !strings.Contains(l, `"echo"`) {
		t.Fatalf("tools/list through the tap: %q %v", l, err)
	}
	h.waitFor("the tap's entry", func() bool { return h.hasText("tapped-demo") })
	h.selectCard("tapped-demo")
	h.waitFor("the tap's entry, live", func() bool {
		return h.hasText("A recorded session, read-only.") &&
			h.hasText("From the tap of "+self+" --demo-server, live. Its messages are in the inspector; it does not connect.")
	})
	paired := func() bool {
		for _, e := range h.be.log.Events() {
			if e.Conn == "tapped-demo" && e.Method == "tools/list" && e.Type == events.MsgRequest && e.Outcome != nil && e.Outcome.State == events.OK {
				return true
			}
		}
		return false
	}
	h.waitFor("the host's tools/list, paired", paired)

	stdin.Close()
	host.Wait() // its exit status is the server's (core/tap's tests)
	h.waitFor("the tap's end", func() bool {
		h.be.mu.Lock()
		defer h.be.mu.Unlock()
		return strings.Contains(h.be.recorded["tapped-demo"], "ended at ")
	})
	if !paired() {
		t.Fatal("the ended tap's messages are gone")
	}
}
