//go:build screenshots

package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spyglass-mcp/spyglass/core/collection"
	"github.com/spyglass-mcp/spyglass/ui"
)

// sessionShots takes the shots of SPYGLASS_SCREENSHOT_FLOW=sessions, with
// the demo server connected: two recorded runs of the same calls with
// one argument changed, opened as traces (7-trace), their comparison
// (8-session-diff), and a collection run with a failing expectation
// (9-collection-run), and the protocol matrix of an echo call
// (10-protocol-matrix), a recorded session's Tools screen
// (11-recorded-tools) and monday replayed against the demo (12-replay),
// each dark and light. dir is the script's folder
// (the traces and the collection are written there). It reports whether
// every shot was taken.
func sessionShots(w *ui.Window, dir string, shot func(string) bool, fail func(error)) bool {
	both := func(name string) bool {
		w.SetTheme("dark")
		if !shot(name) {
			return false
		}
		w.SetTheme("light")
		ok := shot(name + "-light")
		w.SetTheme("dark")
		return ok
	}
	run := func(day string, after uint64) (uint64, bool) {
		for _, c := range []struct{ tool, args string }{
			{"echo", `{"message": "hello from ` + day + `"}`},
			{"get_weather", `{"city": "Lisbon"}`},
		} {
			if err := w.RunTool(c.tool, json.RawMessage(c.args), 60*time.Second); err != nil {
				fail(err)
				return 0, false
			}
		}
		if err := w.SaveTrace("demo", after, filepath.Join(dir, day+ui.TraceExt)); err != nil {
			fail(err)
			return 0, false
		}
		return w.LastSeq(), true
	}
	seq, ok := run("monday", 0)
	if !ok {
		return false
	}
	w.Disconnect("demo") // the second run has a handshake of its own
	if st, err := w.ConnectServer("demo", 60*time.Second); err != nil || st != ui.StateConnected {
		fail(fmt.Errorf("demo did not connect again (%s): %v", st, err))
		return false
	}
	if _, ok := run("tuesday", seq); !ok {
		return false
	}
	ui.Sync(func() {
		w.OpenTrace(filepath.Join(dir, "monday"+ui.TraceExt))
		w.OpenTrace(filepath.Join(dir, "tuesday"+ui.TraceExt))
	})
	if err := w.OpenEvent("tools/call #", 10*time.Second); err != nil {
		fail(err)
		return false
	}
	if !both("7-trace") {
		return false
	}
	ui.Sync(func() { w.CompareSessions("monday", "tuesday") })
	if !both("8-session-diff") {
		return false
	}
	w.CloseDialogs()

	// a collection of the demo server: two calls that hold, one whose
	// argument changed since its result was saved
	w.Select("demo")
	monday := json.RawMessage(`{"content":[{"type":"text","text":"Echo: hello from monday"}]}`)
	c := &collection.Collection{Format: collection.Format, FormatVersion: collection.FormatVersion, Name: "demo-smoke",
		Server: &collection.Server{Name: "demo"},
		Calls: []collection.Call{
			{Name: "echo greets", Method: "tools/call", Params: json.RawMessage(`{"name":"echo","arguments":{"message":"hello from monday"}}`),
				Expect: &collection.Expect{Result: monday, MaxDuration: collection.Duration(2 * time.Second)}},
			{Name: "weather has a forecast", Method: "tools/call", Params: json.RawMessage(`{"name":"get_weather","arguments":{"city":"Lisbon"}}`),
				Expect: &collection.Expect{Pointers: []collection.PointerEquals{{Pointer: "/structuredContent/conditions", Equals: json.RawMessage(`"rain"`)}}, Schema: json.RawMessage(`true`)}},
			{Name: "echo after the rename", Method: "tools/call", Params: json.RawMessage(`{"name":"echo","arguments":{"message":"hello from tuesday"}}`),
				Expect: &collection.Expect{Result: monday}},
		}}
	var buf bytes.Buffer
	if err := collection.Write(&buf, c); err != nil {
		fail(err)
		return false
	}
	path := filepath.Join(dir, "demo-smoke.json")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		fail(err)
		return false
	}
	if err := w.RunCollectionWait(path, 60*time.Second); err != nil {
		fail(err)
		return false
	}
	if !both("9-collection-run") {
		return false
	}
	w.CloseDialogs()
	if err := w.RunTool("echo", json.RawMessage(`{"message": "under every version"}`), 60*time.Second); err != nil {
		fail(err)
		return false
	}
	if err := w.ProtocolMatrixWait("demo", 120*time.Second); err != nil {
		fail(err)
		return false
	}
	if !both("10-protocol-matrix") {
		return false
	}
	w.CloseDialogs()
	// the recorded Tools screen: monday's echo, its schema as the form,
	// the recorded call and result
	if err := w.ShowRecordedTool("monday", "echo", 30*time.Second); err != nil {
		fail(err)
		return false
	}
	if !both("11-recorded-tools") {
		return false
	}
	// monday replayed against the demo: every answer matches
	if err := w.ReplayWait("monday", "demo", 120*time.Second); err != nil {
		fail(err)
		return false
	}
	return both("12-replay")
}
