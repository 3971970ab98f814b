package ui

import (
	"image"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// drawn renders o alone and returns the picture.
func drawn(t *testing.T, o fyne.CanvasObject) image.Image {
	t.Helper()
	w := test.NewTempWindow(t, o)
	w.Resize(fyne.NewSize(300, 60))
	return w.Canvas().Capture()
}

func samePicture(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			r1, g1, b1, a1 := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				return false
			}
		}
	}
	return true
}

// TestUnderscoresDrawn checks that the caption text of server cards draws
// its underscores: "node_modules" must not look like "node modules" (the
// monospace font lost them at caption size).
func TestUnderscoresDrawn(t *testing.T) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(theme.DefaultTheme())
	tail := func(s string) fyne.CanvasObject {
		l := newTailLabel()
		l.SetFull(s)
		return l
	}
	if samePicture(drawn(t, tail("node_modules DATABASE_URL")), drawn(t, tail("node modules DATABASE URL"))) {
		t.Error("a server card's caption draws node_modules like node modules")
	}
}

// TestInstructionsPlain checks that server instructions are shown as the
// plain text they are, not read as markdown (slow_task became "slow_ task").
func TestInstructionsPlain(t *testing.T) {
	_, _, ss := connected(t, nil)
	var label *widget.Label
	var rich bool
	Sync(func() {
		ss.info.onRefresh()
		for _, o := range ss.info.box.Objects {
			switch x := o.(type) {
			case *widget.Label:
				if x.Text == "Use it well." {
					label = x
				}
			case *widget.RichText:
				rich = true
			}
		}
	})
	if label == nil || rich {
		t.Errorf("instructions are not one plain label (label %v, rich text %v)", label != nil, rich)
	}
}

// TestMarkdownParagraphWraps: a Markdown paragraph written over several
// lines wraps as prose at any width — server-everything's architecture.md
// (curly quotes, three source lines) showed its "Design" paragraph as a
// column of one letter per row once a line ended near the right edge.
func TestMarkdownParagraphWraps(t *testing.T) {
	test.NewTempApp(t)
	md := "### Design\n\nA small “server factory” constructs the MCP server and registers features.\n" +
		"Transports are separate entry points that create/connect the server and handle network concerns.\n" +
		"Tools, prompts, and resources are organized in their own submodules.\n"
	row := widget.NewLabel("x").MinSize().Height
	for width := float32(300); width <= 900; width += 7 {
		o := textView(md, "text/markdown")
		w := test.NewTempWindow(t, o)
		w.Resize(fyne.NewSize(width, 2000))
		// about 230 letters: at 300 px some 8 rows, plus the heading
		if h := o.MinSize().Height; h > 14*row {
			t.Fatalf("at %v px the paragraph is %v px tall, %.0f rows: it wraps letter by letter", width, h, h/row)
		}
	}
}

// strongDiffs counts the pixels where a and b differ by more than half of
// full scale in any channel: where one draws a stroke the other does not.
func strongDiffs(a, b image.Image) int {
	n := 0
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			d := func(p, q uint32) bool { return p > q+0x8000 || q > p+0x8000 }
			if d(r1, r2) || d(g1, g2) || d(b1, b2) {
				n++
			}
		}
	}
	return n
}

// TestMonospaceUnderscoresDrawn: monospace text — a server's command, a
// payload's keys, stderr — draws each "_" as a stroke, at the text size
// and the caption size, on a wrapped line as on one alone. Fyne's own
// monospace face ends "_" on the very last row of the line's picture,
// which drew it faint or not at all ("node modules", #12).
func TestMonospaceUnderscoresDrawn(t *testing.T) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(newReadableTheme())
	for _, size := range []fyne.ThemeSizeName{theme.SizeNameText, theme.SizeNameCaptionText} {
		for _, wrap := range []fyne.TextWrap{fyne.TextWrapOff, fyne.TextWrapBreak} {
			label := func(s string) fyne.CanvasObject {
				l := widget.NewLabel(s)
				l.TextStyle.Monospace = true
				l.SizeName = size
				l.Wrapping = wrap
				return l
			}
			with := drawn(t, label("node_modules/DATABASE_URL/node_modules/DATABASE_URL"))
			without := drawn(t, label("node modules/DATABASE URL/node modules/DATABASE URL"))
			// four underscores of 4 strong pixels at least each (Noto
			// Sans Mono draws 18–32 in all; DejaVu Sans Mono drew none)
			if n := strongDiffs(with, without); n < 4*4 {
				t.Errorf("%s, wrap %v: the underscores differ from spaces in %d strong pixels: drawn faint or not at all", size, wrap, n)
			}
		}
	}
}
