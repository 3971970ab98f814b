package ui

import "fyne.io/fyne/v2"

// The inspector can live in its own window (View → Detach inspector), for
// a second screen or a wider event list; closing that window docks it back
// into the main window's right panel. The choice and the window's size are
// remembered in the preferences.

// inspectorWindowSize is the detached inspector's first size.
var inspectorWindowSize = fyne.NewSize(560, 760)

// onDetachInspector moves the inspector into its own window, or docks it
// back when it is in one (View → Detach inspector).
func (w *Window) onDetachInspector() {
	if w.inspWin != nil {
		w.dockInspector()
		return
	}
	w.detachInspector()
}

// detachInspector shows the inspector in a window of its own; the main
// window's working area takes the whole width.
func (w *Window) detachInspector() {
	if w.inspWin != nil {
		w.inspWin.RequestFocus()
		return
	}
	w.split.Trailing = emptyDock
	w.body.Objects = []fyne.CanvasObject{w.center}
	w.body.Refresh()
	w.inspOpen = true
	win := w.app.NewWindow(w.opts.Title + " — Inspector")
	p := w.app.Preferences()
	size := fyne.NewSize(
		float32(p.FloatWithFallback(prefInspWinW, float64(inspectorWindowSize.Width))),
		float32(p.FloatWithFallback(prefInspWinH, float64(inspectorWindowSize.Height))))
	if w.screen.Width > 0 {
		// the same margins as FitScreen: nothing starts off a small screen
		size = fyne.NewSize(min(size.Width, w.screen.Width*0.95), min(size.Height, w.screen.Height*0.92))
	}
	win.Resize(size)
	// objects of its own, not the main window's moved (rebuild says why)
	win.SetContent(w.inspector.rebuild())
	// the same menu, so its shortcuts (Ctrl+K, Ctrl+F, Ctrl+I, …) work
	// there too, even while the inspector's search has the focus
	win.SetMainMenu(w.win.MainMenu())
	// closing the window docks the inspector instead of losing it
	win.SetCloseIntercept(w.dockInspector)
	w.inspWin = win
	w.setDetachChecked(true)
	win.Show()
	w.inspector.placed()
}

// dockInspector closes the inspector's own window and shows the inspector
// as the main window's right panel again.
func (w *Window) dockInspector() {
	win := w.inspWin
	if win == nil {
		return
	}
	w.saveInspectorWindow()
	w.inspWin = nil
	win.SetContent(emptyDockWindow())
	win.Close()
	w.split.Trailing = w.inspector.rebuild()
	w.inspOpen = true
	w.body.Objects = []fyne.CanvasObject{w.split}
	w.split.Refresh()
	w.body.Refresh()
	w.inspector.placed()
	w.setDetachChecked(false)
}

// saveInspectorWindow remembers the detached inspector's size.
func (w *Window) saveInspectorWindow() {
	if w.inspWin == nil {
		return
	}
	sz := w.inspWin.Canvas().Size()
	if sz.Width > 0 && sz.Height > 0 {
		p := w.app.Preferences()
		p.SetFloat(prefInspWinW, float64(sz.Width))
		p.SetFloat(prefInspWinH, float64(sz.Height))
	}
}

// setDetachChecked ticks View → Detach inspector while the inspector is in
// its own window.
func (w *Window) setDetachChecked(on bool) {
	if w.detachItem == nil {
		return
	}
	w.detachItem.Checked = on
	if mm := w.win.MainMenu(); mm != nil {
		mm.Refresh()
	}
}

// emptyDock stands in the split for the inspector while it is detached
// (an object has one parent at a time).
var emptyDock fyne.CanvasObject = emptyDockWindow()

func emptyDockWindow() fyne.CanvasObject { return &fyne.Container{} }
