package ui

import (
	"fmt"
	"maps"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// Preference keys: what the window remembers across restarts in the
// app's Preferences (never a secret).
const (
	prefTheme    = "window.theme" // light, dark or system
	prefWidth    = "window.width"
	prefHeight   = "window.height"
	prefListOff  = "window.listSplit"
	prefInspOff  = "window.inspectorSplit"
	prefInspOpen = "window.inspectorOpen"
	// the inspector's split between its list and an event's details
	prefDetailOff = "window.inspectorDetailSplit"
	prefListOpen  = "window.listOpen"
	prefServer    = "window.server"
	prefTab       = "window.tab"
	// the inspector in its own window, and that window's size
	prefInspDetached = "window.inspectorDetached"
	prefInspWinW     = "window.inspectorWindowWidth"
	prefInspWinH     = "window.inspectorWindowHeight"
	// the event log's memory bound in MB (Settings → Event log memory…)
	prefEventMemMB = "events.memoryMB"
)

// defaultEventMemMB is the event log's memory bound unless set otherwise.
const defaultEventMemMB = 256

// eventMemory is an EventSource whose memory bound can be set (cmd's,
// over core's log: past the bound older events are spilled to disk).
type eventMemory interface{ SetEventMemory(bytes int64) }

// applyEventMemory gives the event log the remembered memory bound.
func (w *Window) applyEventMemory() {
	if m, ok := w.be.Events().(eventMemory); ok {
		m.SetEventMemory(int64(w.app.Preferences().IntWithFallback(prefEventMemMB, defaultEventMemMB)) << 20)
	}
}

// onEventMemory asks how much memory the event log may hold before it
// writes older events to disk (Settings → Event log memory…).
func (w *Window) onEventMemory() {
	if _, ok := w.be.Events().(eventMemory); !ok {
		w.toast("error", "The event log of this window has no memory setting.")
		return
	}
	choices := []string{"64 MB", "128 MB", "256 MB", "512 MB", "1024 MB", "2048 MB"}
	sel := esc.NewSelect(choices, nil)
	sel.SetSelected(fmt.Sprintf("%d MB", w.app.Preferences().IntWithFallback(prefEventMemMB, defaultEventMemMB)))
	note := wrapLabel("Spyglass keeps every event of the session. Beyond this much memory it compresses older events and writes them to a file in its cache folder, and reads them back when you open or search them.")
	d := esc.NewCustomConfirm("Event log memory", "Save", "Cancel", container.NewVBox(note, sel), func(ok bool) {
		if !ok {
			return
		}
		var mb int
		if _, err := fmt.Sscanf(sel.Selected, "%d MB", &mb); err != nil || mb <= 0 {
			return
		}
		w.app.Preferences().SetInt(prefEventMemMB, mb)
		w.applyEventMemory()
	}, w.win)
	// wide enough that the note reads as a paragraph, not a column
	d.Resize(fyne.NewSize(min(480, w.win.Canvas().Size().Width-40), 250))
	esc.Show(d, w.win)
}

// restorePrefs applies what the last window remembered: size, splits,
// panels, theme and (unless Options.Select names one) the server. Fyne
// cannot place a window on every driver, so the position is not kept.
func (w *Window) restorePrefs() {
	w.applyEventMemory()
	p := w.app.Preferences()
	w.win.Resize(fyne.NewSize(float32(p.FloatWithFallback(prefWidth, 1280)), float32(p.FloatWithFallback(prefHeight, 800))))
	w.mainSp.Offset = p.FloatWithFallback(prefListOff, w.mainSp.Offset)
	w.split.Offset = p.FloatWithFallback(prefInspOff, w.split.Offset)
	if !p.BoolWithFallback(prefInspOpen, true) {
		w.ToggleInspector()
	}
	if !p.BoolWithFallback(prefListOpen, true) {
		w.ToggleServerList()
	}
	if p.Bool(prefInspDetached) && w.inspOpen {
		w.detachInspector()
	}
	if w.opts.Select == "" {
		if s := w.server(p.String(prefServer)); s != nil {
			w.selectServer(s)
		}
	}
}

// restoreTheme applies the remembered theme (View → Theme). It runs before
// the window's widgets are built: until the app runs, Fyne's GL driver
// redraws nothing when the theme changes, so widgets built before it kept
// the start theme's colours (dark headings on a light window).
func (w *Window) restoreTheme() {
	w.baseTheme = w.app.Settings().Theme()
	if t := w.app.Preferences().String(prefTheme); t != "" {
		w.setTheme(t)
	}
}

// savePrefs records the window's geometry, panels, server and tab.
func (w *Window) savePrefs() {
	sz := w.win.Canvas().Size()
	b := map[string]any{
		prefWidth:        float64(sz.Width),
		prefHeight:       float64(sz.Height),
		prefListOff:      w.mainSp.Offset,
		prefInspOff:      w.split.Offset,
		prefInspOpen:     w.inspOpen,
		prefListOpen:     w.listOpen,
		prefInspDetached: w.inspWin != nil,
	}
	if in := w.inspector; in.detail.obj.Visible() && in.split.Offset > 0.05 && in.split.Offset < 0.95 {
		b[prefDetailOff] = in.split.Offset
	}
	if w.inspWin != nil {
		if sz := w.inspWin.Canvas().Size(); sz.Width > 0 && sz.Height > 0 {
			b[prefInspWinW], b[prefInspWinH] = float64(sz.Width), float64(sz.Height)
		}
	}
	if w.selected != nil {
		b[prefServer] = w.selected.cfg.Name
		if ss := w.selected.screens; ss != nil && ss.tabs.Selected() != nil {
			b[prefTab] = ss.tabs.Selected().Text
		}
	}
	writePrefs(w.app.Preferences(), b)
}

// writePrefs writes the values (float64, bool or string) as one change of
// Fyne's preferences, which Fyne writes to disk at once. A run of Set
// calls saved only the first: Fyne saves a change at once and the changes
// of the next 100 ms later, from a goroutine that waits on the UI thread,
// which a quitting app never runs — the window's size, splits, server and
// tab were lost on two of three quits. Fyne's app preferences have
// WriteValues (internal.InMemoryPreferences); other Preferences get Set
// calls.
func writePrefs(p fyne.Preferences, values map[string]any) {
	if bw, ok := p.(interface{ WriteValues(func(map[string]any)) }); ok {
		bw.WriteValues(func(v map[string]any) { maps.Copy(v, values) })
		return
	}
	for k, v := range values {
		switch v := v.(type) {
		case float64:
			p.SetFloat(k, v)
		case bool:
			p.SetBool(k, v)
		case string:
			p.SetString(k, v)
		}
	}
}

// restoreTab shows the remembered screen once a server's screens exist.
// Only the first screens shown after start are switched.
func (s *server) restoreTab() {
	if s.w.tabRestored {
		return
	}
	s.w.tabRestored = true
	tab := s.w.app.Preferences().String(prefTab)
	for i, it := range s.screens.tabs.Items {
		if tab != "" && it.Text == tab {
			s.screens.tabs.SelectIndex(i)
		}
	}
}
