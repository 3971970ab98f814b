// Package desktop opens Spyglass's window on the real display. It is the
// only ui package that imports fyne.io/fyne/v2/app (and so the GL driver),
// which keeps the widget packages testable with the headless test driver.
package desktop

import (
	"fyne.io/fyne/v2/app"

	"github.com/spyglass-mcp/spyglass/ui"
)

// AppID is the application ID (it matches FyneApp.toml).
const AppID = "io.github.spyglass_mcp.spyglass"

// Run opens the main window on backend be and blocks until it is closed.
// ready, if not nil, is called on the UI thread once the window exists
// (cmd uses it to drive the window for screenshots).
func Run(be ui.Backend, opts *ui.Options, ready func(*ui.Window)) {
	a := app.NewWithID(AppID)
	w := ui.New(a, be, opts)
	if ready != nil {
		ready(w)
	}
	w.ShowAndRun()
}
