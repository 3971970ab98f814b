//go:build screenshots

package cmd

import (
	"encoding/json"
	"time"

	"github.com/spyglass-mcp/spyglass/ui"
)

// historyShots takes the shots of SPYGLASS_SCREENSHOT_FLOW=history, with
// the demo server connected: the Attempts of a call run twice (with its
// argument hops below), the History chain of a sampling-with-tools loop (the
// script makes Quick Mock the active sampling profile, so the loop
// answers itself), the Experimental screen and the tester with its
// history, each light and dark. It reports whether every shot was taken.
func historyShots(w *ui.Window, shot func(string) bool, fail func(error)) bool {
	both := func(name string) bool {
		w.SetTheme("light")
		if !shot(name + "-light") {
			return false
		}
		w.SetTheme("dark")
		return shot(name + "-dark")
	}
	for range 2 {
		if err := w.RunTool("echo", json.RawMessage(`{"message": "hello again"}`), 60*time.Second); err != nil {
			fail(err)
			return false
		}
	}
	if err := w.OpenEvent("tools/call #", 10*time.Second); err != nil {
		fail(err)
		return false
	}
	if err := w.ShowEventTab("Attempts"); err != nil {
		fail(err)
		return false
	}
	if !both("attempts") {
		return false
	}
	if err := w.RunTool("sample_with_tools", json.RawMessage(`{"prompt": "What time is it, and what is 2 + 3? Use the tools."}`), 60*time.Second); err != nil {
		fail(err)
		return false
	}
	if err := w.ShowScreen("History"); err != nil {
		fail(err)
		return false
	}
	if err := w.WaitHistory("(continuation)", 30*time.Second); err != nil {
		fail(err)
		return false
	}
	if !both("history-chain") {
		return false
	}
	if err := w.ShowScreen("Experimental"); err != nil {
		fail(err)
		return false
	}
	if !both("experimental") {
		return false
	}
	for _, req := range []string{
		`{"jsonrpc": "2.0", "method": "spyglass.demo/ping", "params": {}}`,
		// written out as a person would, so the shot shows the editor's colours
		"{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"tools/call\",\n  \"params\": {\n    \"name\": \"echo\",\n" +
			"    \"arguments\": {\"message\": \"from the tester\"},\n    \"_meta\": {\"progressToken\": 7}\n  }\n}",
	} {
		if err := w.SendTester(req, 30*time.Second); err != nil {
			fail(err)
			return false
		}
	}
	return both("tester")
}
