//go:build screenshots

package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spyglass-mcp/spyglass/ui"
)

// startScreenshots starts the screenshot script when
// SPYGLASS_SCREENSHOT_SCRIPT names a folder (.ci/screenshots.sh sets it).
// Only a build with -tags screenshots has it; screenshots_off.go is the
// no-op every other build gets.
func startScreenshots(w *ui.Window, stderr io.Writer) {
	if dir := os.Getenv("SPYGLASS_SCREENSHOT_SCRIPT"); dir != "" {
		go runScreenshotScript(w, dir, os.Stdout, stderr)
	}
}

// runScreenshotScript drives the window into the states the README's
// screenshots show. Before each shot it prints "SHOT name" on out and
// waits until DIR/name.done exists (the script has taken the picture).
// Servers: the first of the catalog is connected and its tools run; the
// second is expected to fail.
func runScreenshotScript(w *ui.Window, dir string, out, stderr io.Writer) {
	fail := func(err error) {
		fmt.Fprintf(stderr, "spyglass: screenshot script: %v\n", err)
		fmt.Fprintln(out, "FAILED")
		w.Quit()
	}
	shot := func(name string) bool {
		w.DismissToasts()
		time.Sleep(800 * time.Millisecond) // let animations and layout settle
		fmt.Fprintln(out, "SHOT "+name)
		done := filepath.Join(dir, name+".done")
		for i := 0; i < 600; i++ {
			if _, err := os.Stat(done); err == nil {
				return true
			}
			time.Sleep(100 * time.Millisecond)
		}
		fail(fmt.Errorf("nobody took shot %s", name))
		return false
	}
	time.Sleep(1500 * time.Millisecond) // the window maps
	var width, height float32
	if _, err := fmt.Sscanf(os.Getenv("SPYGLASS_SCREENSHOT_SIZE"), "%fx%f", &width, &height); err == nil {
		w.Resize(width, height)
	}
	names := os.Getenv("SPYGLASS_SCREENSHOT_SERVERS")
	if names == "" {
		names = "demo,unreachable"
	}
	list := strings.Split(names, ",")
	good, bad := list[0], list[len(list)-1]
	if st, err := w.ConnectServer(bad, 60*time.Second); err != nil {
		fail(err)
		return
	} else if st != ui.StateFailed {
		fail(fmt.Errorf("%s should fail, it is %s", bad, st))
		return
	}
	if st, err := w.ConnectServer(good, 60*time.Second); err != nil || st != ui.StateConnected {
		fail(fmt.Errorf("%s did not connect (%s): %v", good, st, err))
		return
	}
	if os.Getenv("SPYGLASS_SCREENSHOT_FLOW") == "sessions" {
		if sessionShots(w, dir, shot, fail) {
			fmt.Fprintln(out, "DONE")
			w.Quit()
		}
		return
	}
	if os.Getenv("SPYGLASS_SCREENSHOT_FLOW") == "history" {
		if historyShots(w, shot, fail) {
			fmt.Fprintln(out, "DONE")
			w.Quit()
		}
		return
	}
	// SPYGLASS_SCREENSHOT_THEMES=dark,light takes each main shot in
	// every theme listed: NAME in the first, NAME-THEME in the others
	main := shot
	if themes := strings.Split(os.Getenv("SPYGLASS_SCREENSHOT_THEMES"), ","); themes[0] != "" {
		main = func(name string) bool {
			for i, th := range themes {
				if err := chooseTheme(w, th); err != nil {
					fail(err)
					return false
				}
				n := name
				if i > 0 {
					n += "-" + th
				}
				if !shot(n) {
					return false
				}
			}
			return true
		}
	}
	if !main("1-servers") {
		return
	}
	if err := w.RunTool("get_weather", json.RawMessage(`{"city": "Lisbon"}`), 60*time.Second); err != nil {
		fail(err)
		return
	}
	if !main("2-tools") {
		return
	}
	// the command palette (Ctrl+K) over the Tools screen
	w.OpenPalette("form")
	if !main("palette") {
		return
	}
	w.ClosePalette()
	if err := w.OpenEvent("tools/call #", 10*time.Second); err != nil {
		fail(err)
		return
	}
	if !main("3-inspector") {
		return
	}
	// a run with progress: the waterfall shows where the time went
	if err := w.RunTool("slow_task", json.RawMessage(`{"steps": 6, "step_ms": 120}`), 60*time.Second); err != nil {
		fail(err)
		return
	}
	if err := w.OpenEvent("tools/call #", 10*time.Second); err != nil {
		fail(err)
		return
	}
	if err := w.ShowEventTab("This run"); err != nil {
		fail(err)
		return
	}
	if !main("5-this-run") {
		return
	}
	if err := w.EditServer(good); err != nil {
		fail(err)
		return
	}
	if !main("4-edit-server") {
		return
	}
	w.CloseDialogs()
	// a server's own request waiting for the user
	if _, err := w.StartTool("elicit_form", json.RawMessage(`{}`)); err != nil {
		fail(err)
		return
	}
	if err := w.WaitRequests(30 * time.Second); err != nil {
		fail(err)
		return
	}
	if !main("6-requests") {
		return
	}
	fmt.Fprintln(out, "DONE")
	w.Quit()
}

// chooseTheme picks View › Theme › Light, Dark or System ("light", ...) as
// a person would.
func chooseTheme(w *ui.Window, name string) error {
	var err error
	ui.Sync(func() {
		for _, m := range w.Window().MainMenu().Items {
			for _, it := range m.Items {
				if it.Label != "Theme" || it.ChildMenu == nil {
					continue
				}
				for _, c := range it.ChildMenu.Items {
					if strings.EqualFold(c.Label, name) {
						c.Action()
						return
					}
				}
			}
		}
		err = fmt.Errorf("no View › Theme › %s", name)
	})
	return err
}
