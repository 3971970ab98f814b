package requests

import (
	"encoding/json"
	"fmt"
	"image/color"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The look follows ui/widgets.go: bold headings, word-wrapped labels,
// rounded outlined boxes tinted by a status colour.

// heading is a bold label.
func heading(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.TextStyle = fyne.TextStyle{Bold: true}
	return l
}

// wrapLabel is a word-wrapped label.
func wrapLabel(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.Wrapping = fyne.TextWrapWord
	return l
}

// mutedLabel is a low-importance (grey) word-wrapped label.
func mutedLabel(s string) *widget.Label {
	l := wrapLabel(s)
	l.Importance = widget.LowImportance
	return l
}

// emptyState is a centred, muted message for lists with nothing to show.
func emptyState(s string) *widget.Label {
	l := mutedLabel(s)
	l.Alignment = fyne.TextAlignCenter
	return l
}

// colorFor returns the theme colour of a status level.
func colorFor(level string) color.Color {
	switch level {
	case "ok":
		return theme.Color(theme.ColorNameSuccess)
	case "error":
		return theme.Color(theme.ColorNameError)
	case "warning":
		return theme.Color(theme.ColorNameWarning)
	case "primary":
		return theme.Color(theme.ColorNamePrimary)
	}
	return theme.Color(theme.ColorNameDisabled)
}

// tinted returns c with alpha a.
func tinted(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), a}
}

// box draws content in a rounded box outlined (and lightly tinted) in the
// colour of level ("" for a neutral card). Its colours follow the theme
// (View → Theme while a request is open).
func box(level string, content fyne.CanvasObject) *fyne.Container {
	bg := &boxBackground{level: level}
	bg.ExtendBaseWidget(bg)
	return container.NewStack(bg, container.NewPadded(content))
}

// boxBackground is a box's rounded rectangle, coloured from the current
// theme whenever it is refreshed.
type boxBackground struct {
	widget.BaseWidget
	level string
}

// CreateRenderer implements fyne.Widget.
func (b *boxBackground) CreateRenderer() fyne.WidgetRenderer {
	r := canvas.NewRectangle(color.Transparent)
	r.CornerRadius = 6
	r.StrokeWidth = 1
	br := &boxRenderer{b: b, rect: r}
	br.Refresh()
	return br
}

type boxRenderer struct {
	b    *boxBackground
	rect *canvas.Rectangle
}

func (r *boxRenderer) Layout(size fyne.Size)        { r.rect.Resize(size) }
func (r *boxRenderer) MinSize() fyne.Size           { return fyne.Size{} }
func (r *boxRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.rect} }
func (r *boxRenderer) Destroy()                     {}

// Refresh takes the theme's colours afresh.
func (r *boxRenderer) Refresh() {
	r.rect.FillColor = theme.Color(theme.ColorNameInputBackground)
	r.rect.StrokeColor = theme.Color(theme.ColorNameInputBorder)
	if r.b.level != "" {
		c := colorFor(r.b.level)
		r.rect.StrokeColor = c
		r.rect.FillColor = tinted(c, 0x22)
	}
	r.rect.Refresh()
}

// warning is a yellow box with the warning icon and a wrapped text.
func warning(text string) (*fyne.Container, *widget.Label) {
	l := wrapLabel(text)
	return box("warning", container.NewBorder(nil, nil, widget.NewIcon(theme.WarningIcon()), nil, l)), l
}

// errorLine is a red, wrapped label, hidden while empty.
func errorLine() *widget.Label {
	l := wrapLabel("")
	l.Importance = widget.DangerImportance
	l.Hide()
	return l
}

// setError shows msg in l ("" hides it).
func setError(l *widget.Label, msg string) {
	l.SetText(msg)
	if msg == "" {
		l.Hide()
	} else {
		l.Show()
	}
}

// truncate cuts s at n runes, adding an ellipsis when it did.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// oneLine folds white space runs (newlines included) into single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// compactJSON returns raw on one line (as is when it is not JSON).
func compactJSON(raw []byte) string {
	var b strings.Builder
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return string(raw)
	}
	return strings.TrimSpace(b.String())
}

// schemaSummary describes an input schema as "{ city: string, days: number }".
func schemaSummary(raw json.RawMessage) string {
	var s struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil || len(s.Properties) == 0 {
		return "{ }"
	}
	req := map[string]bool{}
	for _, r := range s.Required {
		req[r] = true
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, 0, len(names))
	for _, n := range names {
		t := "any"
		switch v := s.Properties[n].Type.(type) {
		case string:
			t = v
		case []any:
			var ts []string
			for _, x := range v {
				ts = append(ts, fmt.Sprint(x))
			}
			t = strings.Join(ts, "|")
		}
		mark := ""
		if req[n] {
			mark = "*"
		}
		parts = append(parts, n+mark+": "+t)
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

// sizeText words a byte count.
func sizeText(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// requestHeader is the first line of a request panel: the warning icon and
// the title in bold, with "from <server> · request <id>" under it; action
// (nil for none) sits at the title's right.
func requestHeader(title, server, id, round string, action fyne.CanvasObject) fyne.CanvasObject {
	from := "from " + server
	switch {
	case round != "": // an input request of a multi round-trip request
		from += " · " + round
	case id != "":
		from += " · request " + id
	}
	// the title wraps: a request shown in a narrow tool panel must not
	// make the window wider (#12)
	head := heading(title)
	head.Wrapping = fyne.TextWrapWord
	return container.NewVBox(
		container.NewBorder(nil, nil, widget.NewIcon(theme.WarningIcon()), action, head),
		mutedLabel(from),
	)
}

// rightInset keeps its child clear of a scroll bar on the right.
type rightInset struct{ w float32 }

// MinSize implements fyne.Layout.
func (r *rightInset) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	return s.AddWidthHeight(r.w, 0)
}

// Layout implements fyne.Layout.
func (r *rightInset) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size.SubtractWidthHeight(r.w, 0))
	}
}
