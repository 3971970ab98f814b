package cmd

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/ui"
)

// TestGUIProtocolMatrix runs the demo server's echo call again under
// every protocol version (fresh connections over Streamable HTTP, each
// pinned), and reads the matrix: the modern era's result differs from
// 2025-11-25's in exactly its _meta and resultType, the legacy versions
// answer alike, and each connection's handshake asked for its version.
func TestGUIProtocolMatrix(t *testing.T) {
	h := newGUIHarness(t)
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	h.runTool("echo", `{"message":"under every version"}`)
	h.waitFor("the echo result", func() bool { return h.hasText("Echo: under every version") })

	ui.Sync(h.menuItem("Tools", "Protocol matrix of last call…").Action)
	h.waitFor("the matrix", func() bool { return h.hasText("tools/call echo: ") })
	var lines []string
	ui.Sync(func() {
		for _, o := range h.win.Canvas().Overlays().List() {
			walk(o, func(o fyne.CanvasObject) {
				if l, ok := o.(*widget.Label); ok && l.Text != "" {
					lines = append(lines, l.Text)
				}
			})
		}
	})
	got := strings.Join(lines, "\n")
	// the modern era's result carries the server's _meta and resultType;
	// every legacy version answers alike
	v := session.Versions
	want := []string{
		v[0], "the first result",
		v[1], "≠ 2 differences from " + v[0],
		"    removed /result/_meta: ", "    removed /result/resultType: \"complete\"",
	}
	for i := 2; i < len(v); i++ {
		want = append(want, v[i], "= the same result as "+v[i-1])
	}
	var shown []string
	for _, l := range lines {
		if strings.HasSuffix(l, "s") && !strings.Contains(l, " ") { // a duration
			continue
		}
		if strings.HasPrefix(l, "    removed /result/_meta: ") {
			l = "    removed /result/_meta: "
		}
		shown = append(shown, l)
	}
	if !strings.HasPrefix(strings.Join(shown, "\n"), strings.Join(want, "\n")) ||
		!strings.Contains(got, "tools/call echo: the result changes at "+v[0]+" → "+v[1]+".") {
		t.Fatalf("the matrix reads:\n%s\nwant it to begin:\n%s", strings.Join(shown, "\n"), strings.Join(want, "\n"))
	}
	// each pinned connection's messages are in the log under its name,
	// its handshake asking for its version
	for _, v := range session.Versions[1:] {
		found := false
		for _, e := range h.be.log.Events() {
			if e.Conn == "demo @ "+v && e.Type == events.MsgRequest && e.Method == "initialize" && strings.Contains(string(e.Raw), `"protocolVersion":"`+v+`"`) {
				found = true
			}
		}
		if !found {
			t.Fatalf("no initialize asking for %s under demo @ %s", v, v)
		}
	}
}
