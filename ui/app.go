package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// ServerEntry is one server of the catalog as the window lists it.
type ServerEntry struct {
	Name      string
	Transport string
}

// Run opens the main window listing servers and blocks until it closes.
func Run(title string, servers []ServerEntry) {
	a := app.NewWithID("io.github.spyglass_mcp.spyglass")
	w := a.NewWindow(title)
	list := widget.NewList(
		func() int { return len(servers) },
		func() fyne.CanvasObject { return widget.NewLabel("server") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			o.(*widget.Label).SetText(servers[i].Name + " (" + servers[i].Transport + ")")
		})
	w.SetContent(container.NewBorder(widget.NewLabel("Servers"), nil, nil, nil, list))
	w.Resize(fyne.NewSize(1024, 700))
	w.ShowAndRun()
}
