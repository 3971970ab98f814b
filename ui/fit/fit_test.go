package fit

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

func box(w, h float32) fyne.CanvasObject {
	r := canvas.NewRectangle(nil)
	r.SetMinSize(fyne.NewSize(w, h))
	return r
}

// TestRowWrapMinSizeHonest: a row laid out once in a wide space still
// needs only its widest object's width, and as many rows as its width
// takes. Fyne's RowWrapLayout kept the widest row it had laid out as its
// minimum, so a window laid out at 1280 wide could not shrink to 973.
func TestRowWrapMinSizeHonest(t *testing.T) {
	test.NewTempApp(t)
	c := container.New(NewRowWrap(), box(100, 20), box(120, 20), box(80, 20))
	pad := float32(4) // theme.Padding() of the test theme
	c.Resize(fyne.NewSize(1000, 100))
	if m := c.MinSize(); m.Width != 120 || m.Height != 20 {
		t.Fatalf("laid out 1000 wide: MinSize %v, want 120 wide and one row (20)", m)
	}
	c.Resize(fyne.NewSize(230, 100)) // 100 + 120 fit, 80 wraps
	if m := c.MinSize(); m.Width != 120 || m.Height != 40+pad {
		t.Fatalf("laid out 230 wide: MinSize %v, want 120 wide and two rows", m)
	}
	if p := c.Objects[2].Position(); p.X != 0 || p.Y != 20+pad {
		t.Fatalf("the third object is at %v, want the start of the second row", p)
	}
	c.Objects[1].Hide()
	if m := c.MinSize(); m.Width != 100 {
		t.Fatalf("a hidden object still counts: MinSize %v", m)
	}
}

// TestColumnWrapsText: a column of wrapped text needs no more than its
// widest unwrappable object, and lays the text out at most max wide,
// centred.
func TestColumnWrapsText(t *testing.T) {
	test.NewTempApp(t)
	l := widget.NewLabel("Not connected. Connect to see its tools, resources and prompts, and a little more text.")
	l.Wrapping = fyne.TextWrapWord
	btn := widget.NewButton("Connect", nil)
	c := container.New(NewColumn(300), l, container.NewCenter(btn))
	c.Resize(fyne.NewSize(800, 600))
	if m := c.MinSize(); m.Width > btn.MinSize().Width+1 {
		t.Errorf("MinSize %v: wider than the button %v, the text did not wrap", m, btn.MinSize())
	}
	if l.Size().Width != 300 || l.Position().X != 250 {
		t.Errorf("the text is %v at %v, want 300 wide centred at x=250", l.Size(), l.Position())
	}
	c.Resize(fyne.NewSize(200, 600))
	if l.Size().Width != 200 {
		t.Errorf("in a 200-wide space the text is %v wide", l.Size())
	}
}

// TestColumnTopHoldsStill: the column's top stays a fifth of the way
// down whatever it holds, so a longer text at its end moves nothing
// above it (a centred column moved its button under the pointer), and
// it rises only where it would not fit.
func TestColumnTopHoldsStill(t *testing.T) {
	test.NewTempApp(t)
	btn := widget.NewButton("Retry", nil)
	more := widget.NewLabel("short")
	more.Wrapping = fyne.TextWrapWord
	c := container.New(NewColumn(300), btn, more)
	c.Resize(fyne.NewSize(800, 600))
	at := btn.Position()
	if at.Y != 120 {
		t.Errorf("the column's top is at y=%v, want 120, a fifth of 600", at.Y)
	}
	more.SetText(strings.Repeat("a longer error that wraps onto many lines ", 12))
	c.Refresh()
	c.Resize(fyne.NewSize(800, 600))
	if btn.Position() != at {
		t.Errorf("the button moved from %v to %v when the text below it grew", at, btn.Position())
	}
	h := c.MinSize().Height
	c.Resize(fyne.NewSize(800, h+20))
	if y := btn.Position().Y; y != 20 {
		t.Errorf("in a space 20 taller than it the column's top is at %v, want 20, to fit", y)
	}
}
