package jsonedit

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

const sample = "{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"tools/call\",\n  \"params\": {\"n\": -1.5e3, \"ok\": true, \"x\": null}\n}"

func capture(t *testing.T, ed *Editor) image.Image {
	t.Helper()
	w := test.NewTempWindow(t, ed)
	w.Resize(fyne.NewSize(520, 160))
	return w.Canvas().Capture()
}

// The coloured layer lies exactly over the Entry's own text: drawn in the
// foreground colour over a hidden Entry text, the editor looks like a
// plain Entry showing the same text.
func TestLayerAlignsWithEntry(t *testing.T) {
	test.NewTempApp(t).Settings().SetTheme(theme.DefaultTheme())
	defer func() { hideEntryText, monochrome = true, false }()

	hideEntryText, monochrome = false, false
	plainEd := New()
	plainEd.layer.Hide()
	plainEd.SetText(sample)
	plain := capture(t, plainEd)

	hideEntryText, monochrome = true, true
	ed := New()
	ed.SetText(sample)
	layered := capture(t, ed)

	if dir := os.Getenv("JSONEDIT_DUMP"); dir != "" {
		for n, im := range map[string]image.Image{"plain": plain, "layered": layered} {
			f, _ := os.Create(filepath.Join(dir, n+".png"))
			_ = png.Encode(f, im)
			f.Close()
		}
	}
	diff, ink := 0, 0
	b := plain.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			p, q := gray(plain.At(x, y)), gray(layered.At(x, y))
			if p != gray(plain.At(b.Max.X-20, b.Max.Y-20)) { // not the box's background
				ink++
			}
			if d := p - q; d > 100 || d < -100 {
				diff++
			}
		}
	}
	if ink < 500 {
		t.Fatalf("the plain Entry drew only %d pixels of text", ink)
	}
	t.Logf("%d of %d text pixels differ", diff, ink)
	// Aligned, about 5% differ (each token snaps to the pixel grid on its
	// own); one pixel off to the right or down, 11 to 16%.
	if diff*100 > ink*6 {
		t.Errorf("the layer's text is off the Entry's: %d of %d text pixels differ", diff, ink)
	}
}

func gray(c color.Color) int {
	r, g, b, _ := c.RGBA()
	return int((r + g + b) / 3 >> 8)
}

// drawnTexts are the layer's text objects by their text.
func drawnTexts(t *testing.T, ed *Editor) map[string]*canvas.Text {
	t.Helper()
	out := map[string]*canvas.Text{}
	for _, o := range test.TempWidgetRenderer(t, ed.layer).Objects() {
		if tx, ok := o.(*canvas.Text); ok {
			out[tx.Text] = tx
		}
	}
	return out
}

func TestTokenColours(t *testing.T) {
	a := test.NewTempApp(t)
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		a.Settings().SetTheme(forcedVariant{theme.DefaultTheme(), v})
		ed := New()
		w := test.NewTempWindow(t, ed)
		w.Resize(fyne.NewSize(600, 200))
		ed.SetText(sample)
		th := a.Settings().Theme()
		want := map[string]Kind{`"jsonrpc"`: Key, `"2.0"`: String, `-1.5e3`: Number, `true`: Literal, `null`: Literal, `{`: Punct}
		got := drawnTexts(t, ed)
		for text, k := range want {
			tx, ok := got[text]
			if !ok {
				t.Fatalf("variant %d: %s is not drawn; drawn: %v", v, text, keys(got))
			}
			if tx.Color != TokenColor(th, k, v) {
				t.Errorf("variant %d: %s drawn in %v, want the %s colour %v", v, text, tx.Color, k, TokenColor(th, k, v))
			}
		}
		if got[`"jsonrpc"`].Color == got[`"2.0"`].Color || got[`"2.0"`].Color == got[`true`].Color {
			t.Errorf("variant %d: keys, strings and literals look alike", v)
		}
	}
}

// Every token colour reaches WCAG AA (4.5:1) against the editor's
// background in both variants.
func TestTokenContrast(t *testing.T) {
	th := theme.DefaultTheme()
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		bg := th.Color(theme.ColorNameInputBackground, v)
		for _, k := range Kinds {
			if r := Contrast(TokenColor(th, k, v), bg); r < 4.5 {
				t.Errorf("variant %d: %s is %.2f:1 on the input background, want at least 4.5:1", v, k, r)
			}
		}
	}
}

func TestTypingIndentUndo(t *testing.T) {
	test.NewTempApp(t)
	ed := New()
	w := test.NewTempWindow(t, ed)
	w.Resize(fyne.NewSize(400, 200))
	w.Canvas().Focus(ed.Entry)
	test.Type(ed.Entry, `{"a": [`)
	ed.Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	test.Type(ed.Entry, "1,")
	ed.Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	ed.Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyTab})
	test.Type(ed.Entry, "2")
	if want := "{\"a\": [\n  1,\n    2"; ed.Text() != want {
		t.Fatalf("typed text is %q, want %q", ed.Text(), want)
	}
	if tx, ok := drawnTexts(t, ed)["2"]; !ok || tx.Color != TokenColor(fyne.CurrentApp().Settings().Theme(), Number, fyne.CurrentApp().Settings().ThemeVariant()) {
		t.Errorf("the typed number is not drawn as a number")
	}
	ed.Entry.TypedShortcut(&fyne.ShortcutUndo{})
	if strings.HasSuffix(ed.Text(), "2") {
		t.Errorf("Ctrl+Z left %q", ed.Text())
	}
	ed.Entry.TypedShortcut(&fyne.ShortcutSelectAll{})
	cb := fyne.CurrentApp().Clipboard()
	ed.Entry.TypedShortcut(&fyne.ShortcutCut{Clipboard: cb})
	if ed.Text() != "" || !strings.HasPrefix(cb.Content(), `{"a": [`) {
		t.Errorf("Ctrl+A, Ctrl+X left %q and put %q on the clipboard", ed.Text(), cb.Content())
	}
	ed.Entry.TypedShortcut(&fyne.ShortcutPaste{Clipboard: cb})
	if !strings.HasPrefix(ed.Text(), `{"a": [`) {
		t.Errorf("Ctrl+V gave %q", ed.Text())
	}
}

func TestScrollFollowsCaret(t *testing.T) {
	test.NewTempApp(t)
	ed := New()
	w := test.NewTempWindow(t, ed)
	w.Resize(fyne.NewSize(300, 150))
	w.Canvas().Focus(ed.Entry)
	for i := 0; i < 40; i++ {
		test.Type(ed.Entry, `"k": 1,`)
		ed.Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	}
	test.Type(ed.Entry, `"last": true`)
	if ed.Offset().Y <= 0 {
		t.Fatalf("the editor did not scroll to the caret on line 41 (offset %v)", ed.Offset())
	}
	got := drawnTexts(t, ed)
	if _, ok := got[`"last"`]; !ok {
		t.Errorf("the last line is not drawn after scrolling")
	}
	if len(got) > 40 {
		t.Errorf("%d distinct texts drawn: rows out of view are drawn too", len(got))
	}
}

func TestProblemMark(t *testing.T) {
	test.NewTempApp(t)
	ed := New()
	w := test.NewTempWindow(t, ed)
	w.Resize(fyne.NewSize(400, 200))
	ed.SetText("{\n  \"a\": 1,,\n}")
	r := test.TempWidgetRenderer(t, ed.layer).(*layerRenderer)
	if r.mark.Visible() {
		t.Fatal("a mark is shown before any problem was set")
	}
	ed.SetProblem(2, 10)
	if !r.mark.Visible() || !r.under.Visible() {
		t.Fatal("no mark for the problem at 2:10")
	}
	m := metricsOf(ed.Theme())
	if want := fyne.NewPos(m.pad+9*m.cell.Width, m.pad+m.cell.Height); r.mark.Position() != want {
		t.Errorf("mark at %v, want %v (the second comma)", r.mark.Position(), want)
	}
	if r.mark.Size().Width < m.cell.Width-0.01 {
		t.Errorf("mark is %v wide, want a character", r.mark.Size())
	}
	ed.SetProblem(0, 0)
	if r.mark.Visible() {
		t.Error("the mark stays after the problem is gone")
	}
}

type forcedVariant struct {
	fyne.Theme
	v fyne.ThemeVariant
}

func (f forcedVariant) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return f.Theme.Color(n, f.v)
}

func keys(m map[string]*canvas.Text) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// The wheel scrolls the editor, and what it cannot use goes to PassWheel.
func TestWheel(t *testing.T) {
	test.NewTempApp(t)
	ed := New()
	var passed int
	ed.PassWheel = func(*fyne.ScrollEvent) { passed++ }
	w := test.NewTempWindow(t, ed)
	w.Resize(fyne.NewSize(300, 150))
	ed.SetText(strings.Repeat("\"k\": 1,\n", 40))
	test.Scroll(w.Canvas(), fyne.NewPos(100, 60), 0, -40)
	if ed.Offset().Y <= 0 || passed != 0 {
		t.Fatalf("the wheel over a long text moved it to %v and was passed on %d times", ed.Offset(), passed)
	}
	ed.SetText("{}")
	test.Scroll(w.Canvas(), fyne.NewPos(100, 60), 0, -40)
	if passed != 1 {
		t.Fatalf("the wheel over a short text was passed on %d times, want 1", passed)
	}
}

// Clicks, drags and the pointer go through the colour layer and the wheel
// catcher to the Entry: Fyne hands a pointer event to the topmost object
// that takes it, so neither may take any. (The test driver cannot show
// it: the Entry places the caret on mouse down, which it does not send;
// the window was clicked under Xvfb.)
func TestOverlaysTakeNoPointer(t *testing.T) {
	test.NewTempApp(t)
	ed := New()
	for _, o := range []fyne.CanvasObject{ed.layer, ed.wheel} {
		_, tap := o.(fyne.Tappable)
		_, dbl := o.(fyne.DoubleTappable)
		_, sec := o.(fyne.SecondaryTappable)
		_, drag := o.(fyne.Draggable)
		_, mouse := o.(desktop.Mouseable)
		_, hover := o.(desktop.Hoverable)
		_, cur := o.(desktop.Cursorable)
		_, focus := o.(fyne.Focusable)
		if tap || dbl || sec || drag || mouse || hover || cur || focus {
			t.Errorf("%T takes pointer or focus events", o)
		}
	}
}

func TestMarkSyntax(t *testing.T) {
	test.NewTempApp(t)
	ed := New()
	ed.MarkSyntax = true
	w := test.NewTempWindow(t, ed)
	w.Resize(fyne.NewSize(300, 150))
	for _, c := range []struct {
		text      string
		line, col int
	}{
		{"{\n  \"a\": 1,,\n}", 2, 10},
		{`{"é": tru}`, 1, 10},
		{`{"a": `, 1, 6},
		{`{"a": 1}`, 0, 0},
		{"", 0, 0},
	} {
		ed.SetText(c.text)
		if l, col := ed.Problem(); l != c.line || col != c.col {
			t.Errorf("%q: marked %d:%d, want %d:%d", c.text, l, col, c.line, c.col)
		}
	}
}

// TestEscInEditorCancelsDialog: Esc typed in the editor cancels the
// dialog it is in (Fyne gives the key to the focused editor only).
func TestEscInEditorCancelsDialog(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel("behind"))
	w.Resize(fyne.NewSize(500, 400))
	ed := New()
	ed.SetText(`{"a": 1}`)
	esc.Show(esc.NewCustom("Edit", "Close", ed, w), w)
	c := w.Canvas()
	c.Focus(ed.Entry)
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if esc.Open(c) != 0 || c.Overlays().Top() != nil {
		t.Fatalf("Esc in the JSON editor left its dialog open")
	}
	if ed.Text() != `{"a": 1}` {
		t.Errorf("Esc changed the text to %q", ed.Text())
	}
}
