package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// answerPane is where a detail pane shows the answer to its request below
// its form (a prompt's messages, a resource's contents): that the request
// is under way, then the answer or an error, whose head is brought into
// view when a long form left it below the fold, as the Tools screen
// brings a result.
type answerPane struct {
	box    *fyne.Container // the answer's place, inside scroll
	scroll *container.Scroll
	bar    *widget.ProgressBarInfinite // runs while a request is under way
}

// newAnswerPane is the pane of box, which scroll holds.
func newAnswerPane(box *fyne.Container, scroll *container.Scroll) *answerPane {
	return &answerPane{box: box, scroll: scroll}
}

// wait says what is being done (text) under a bar that runs until the
// answer comes.
func (a *answerPane) wait(text string) {
	l := widget.NewLabel(text)
	l.Importance = widget.LowImportance
	l.Wrapping = fyne.TextWrapBreak // a long URI must not widen the pane
	bar := widget.NewProgressBarInfinite()
	a.set(container.NewVBox(l, bar))
	a.bar = bar
}

// set shows objs (nothing: empty) where they stand.
func (a *answerPane) set(objs ...fyne.CanvasObject) {
	if a.bar != nil {
		a.bar.Stop()
		a.bar = nil
	}
	a.box.Objects = objs
	a.box.Refresh()
	a.scroll.Refresh() // again, now that wrapped rows know their height
}

// show shows the answer (or an error), its head brought into view.
func (a *answerPane) show(objs ...fyne.CanvasObject) {
	a.set(objs...)
	esc.RevealHead(a.scroll, a.box)
}
