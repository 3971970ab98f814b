// Package desktop opens Spyglass's window on the real display. It is the
// only ui package that imports fyne.io/fyne/v2/app (and so the GL driver),
// which keeps the widget packages testable with the headless test driver.
package desktop

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/spyglass-mcp/spyglass/assets"
	"github.com/spyglass-mcp/spyglass/ui"
)

// AppID is the application ID (it matches FyneApp.toml).
const AppID = "io.github.spyglass_mcp.spyglass"

// Run opens the main window on backend be and blocks until it is closed.
// ready, if not nil, is called on the UI thread once the window exists
// (cmd uses it to drive the window for screenshots). Once the app runs,
// the window is shrunk to fit the primary screen when it is larger.
func Run(be ui.Backend, opts *ui.Options, ready func(*ui.Window)) {
	a := app.NewWithID(AppID)
	a.SetIcon(fyne.NewStaticResource("spyglass.png", assets.Icon))
	w := ui.New(a, be, opts)
	a.Lifecycle().SetOnStarted(func() {
		fyne.Do(func() { w.FitScreen(screenSize(w.Scale())) })
	})
	if ready != nil {
		ready(w)
	}
	w.AutoConnect() // after ready: the request queue answers the server
	w.ShowAndRun()
}

// screenSize is the primary monitor's size in canvas units at scale, or
// zero when the driver cannot tell. Fyne has no screen API; its GLFW driver
// has initialised GLFW by the time the app has started, and fyne.Do runs on
// the thread GLFW needs.
func screenSize(scale float32) (width, height float32) {
	m := glfw.GetPrimaryMonitor()
	if m == nil || scale <= 0 {
		return 0, 0
	}
	mode := m.GetVideoMode()
	if mode == nil {
		return 0, 0
	}
	return float32(mode.Width) / scale, float32(mode.Height) / scale
}
