//go:build screenshots

package ui

// OpenPalette opens the command palette (Ctrl+K) with query typed into its
// filter, for the screenshot script (see automate.go).
func (w *Window) OpenPalette(query string) {
	Sync(func() {
		if w.palette == nil || !w.palette.pop.Visible() {
			w.onCommandPalette()
		}
		w.palette.entry.SetText(query)
	})
}

// ClosePalette closes the command palette if it is open.
func (w *Window) ClosePalette() {
	Sync(func() {
		if w.palette != nil {
			w.palette.close()
		}
	})
}
