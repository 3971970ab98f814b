package ui

import (
	"io"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// toastLife is how long a toast stays before it closes by itself.
const toastLife = 4 * time.Second

// toastWidth is a toast's width where the work area has room for it.
const toastWidth = 400

// toaster shows transient messages, each with a close button, at the
// bottom left of anchor (the work area): never over the inspector, whose
// newest rows are at its bottom. Without an anchor they sit at the bottom
// left of the window.
type toaster struct {
	stack  *fyne.Container
	layer  *fyne.Container
	items  []*toast
	anchor fyne.CanvasObject
	closed bool // the window closed: no timer touches the toasts again
}

type toast struct {
	level string
	text  string
	obj   fyne.CanvasObject
	timer *time.Timer // takes it away at the end of its life
}

func newToaster() *toaster {
	t := &toaster{stack: container.NewVBox()}
	t.layer = container.New(&toastPlace{t: t}, t.stack)
	return t
}

// toastPlace lays the toasts out over the bottom left of the anchor.
type toastPlace struct{ t *toaster }

// MinSize implements fyne.Layout: the layer asks for no room.
func (p *toastPlace) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.Size{} }

// Layout implements fyne.Layout.
func (p *toastPlace) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	origin, area := p.area(size)
	pad := 2 * theme.Padding()
	st := p.t.stack
	w := fyne.Min(toastWidth, area.Width-2*pad)
	// a wrapping label knows its height once it has its width
	st.Resize(fyne.NewSize(w, st.MinSize().Height))
	h := st.MinSize().Height
	st.Resize(fyne.NewSize(w, h))
	st.Move(fyne.NewPos(origin.X+pad, origin.Y+area.Height-h-pad))
}

// area is where the toasts go, relative to the layer: the anchor's
// rectangle, or the whole layer.
func (p *toastPlace) area(size fyne.Size) (fyne.Position, fyne.Size) {
	a := p.t.anchor
	if a == nil || !a.Visible() || a.Size().Width < 2*toastWidth/3 || fyne.CurrentApp() == nil {
		return fyne.Position{}, size
	}
	d := fyne.CurrentApp().Driver()
	return d.AbsolutePositionForObject(a).Subtract(d.AbsolutePositionForObject(p.t.layer)), a.Size()
}

// toastIcon is the icon of a toast of level: "error" (a failure), "warning"
// (a refusal, a decline, something not done), "info" (a note) or "ok" (a
// success, the only one with the green check).
func toastIcon(level string) fyne.Resource {
	switch level {
	case "error":
		return theme.ErrorIcon()
	case "warning":
		return theme.WarningIcon()
	case "ok":
		return theme.ConfirmIcon()
	}
	return theme.InfoIcon()
}

// toastColor is the outline colour of a toast of level (see toastIcon).
func toastColor(level string) string {
	switch level {
	case "error", "warning", "ok":
		return level
	}
	return "primary"
}

// show adds a toast of level (see toastIcon).
func (t *toaster) show(level, msg string) { t.showAction(level, msg, "", toastLife, nil) }

// showAction adds a toast with a button (actLabel, such as "Undo") that runs
// action and closes the toast; it stays for life.
func (t *toaster) showAction(level, msg, actLabel string, life time.Duration, action func()) {
	short, _ := truncate(firstLine(msg), errorCut)
	icon := widget.NewIcon(toastIcon(level))
	// the whole short message, wrapped: a toast is read once
	label := widget.NewLabel(short)
	label.Wrapping = fyne.TextWrapWord
	item := &toast{level: level, text: msg}
	closeBtn := widget.NewButtonWithIcon("", theme.CancelIcon(), func() { t.remove(item) })
	closeBtn.Importance = widget.LowImportance
	// the actions go on a line of their own below the message, at its
	// right end: beside it, "Show more" and "Show full error" left the
	// message a column of one or two words a line
	acts := container.NewHBox(layout.NewSpacer())
	if short != msg {
		more := widget.NewButton("Show more", func() {
			if w := fyne.CurrentApp().Driver().AllWindows(); len(w) > 0 {
				showTextDialog("Details", msg, w[0])
			}
		})
		more.Importance = widget.LowImportance
		acts.Add(more)
	}
	if action != nil {
		act := widget.NewButton(actLabel, func() {
			t.remove(item)
			action()
		})
		act.Importance = widget.HighImportance
		acts.Add(act)
	}
	var below fyne.CanvasObject
	if len(acts.Objects) > 1 {
		below = acts
	}
	bg := newPanelBg(theme.ColorNameOverlayBackground, "", 2, 6)
	bg.level = toastColor(level)
	row := container.NewBorder(nil, below, container.NewVBox(icon), container.NewVBox(closeBtn), label)
	sized := container.NewStack(bg, container.NewPadded(row))
	item.obj = sized
	t.items = append(t.items, item)
	if len(t.items) > 4 {
		t.remove(t.items[0])
	}
	t.stack.Add(sized)
	t.layer.Refresh()
	item.timer = time.AfterFunc(life, func() {
		do(func() {
			if !t.closed {
				t.remove(item)
			}
		})
	})
}

// stop ends every toast's timer as the window closes: a toast's life
// outlasts a short test, and its timer's layout of a closed window ran
// beside the next test's widgets (a data race on Fyne's renderer cache
// under the headless driver, which runs fyne.Do on the caller's
// goroutine). A timer already firing finds the toaster closed.
func (t *toaster) stop() {
	t.closed = true
	for _, it := range t.items {
		it.timer.Stop()
	}
}

func (t *toaster) remove(item *toast) {
	if item.timer != nil {
		item.timer.Stop()
	}
	for i, it := range t.items {
		if it == item {
			t.items = append(t.items[:i], t.items[i+1:]...)
			t.stack.Remove(item.obj)
			t.layer.Refresh()
			return
		}
	}
}

// texts returns the toasts shown now (tests).
func (t *toaster) texts() []string {
	var out []string
	for _, it := range t.items {
		out = append(out, it.text)
	}
	return out
}

func itoa(i int) string { return strconv.Itoa(i) }

// storageReader reads the file behind a dropped URI.
func storageReader(u fyne.URI) ([]byte, error) {
	r, err := storage.Reader(u)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(io.LimitReader(r, 4<<20))
}
