package ui

import (
	"image/color"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// suggestion is the visible button labelled text under o (nil if none).
func suggestion(o fyne.CanvasObject, text string) *widget.Button {
	var found *widget.Button
	walkVisible(o, func(o fyne.CanvasObject) {
		if b, ok := esc.AsButton(o); ok && b.Text == text && found == nil {
			found = b
		}
	})
	return found
}

// TestSuggestionsDropUnderTheirField: typing in the template's second
// variable shows its suggestions right under that field, as wide as it,
// over what is below: the next field and the Read button stay where they
// were. Down and Up walk the list, Enter takes the one moved to and the
// field keeps the focus; Esc closes the list; a click fills the field
// (#12: the chips showed under the last field, far from the one typed
// in).
func TestSuggestionsDropUnderTheirField(t *testing.T) {
	w, _, ss := connected(t, nil)
	clock := &manualClock{}
	r := ss.resources
	var name, style *esc.Entry
	Sync(func() {
		w.win.Resize(fyne.NewSize(1280, 800))
		selectTab(ss, "Resources")
		r.list.Select(2)
	})
	d := fyne.CurrentApp().Driver()
	var stylePos, readPos fyne.Position
	Sync(func() {
		r.params.after = clock.after
		name, style = r.params.form.FieldEntry("name"), r.params.form.FieldEntry("style")
		w.win.Canvas().Focus(name)
		test.Type(name, "A")
		stylePos, readPos = d.AbsolutePositionForObject(style), d.AbsolutePositionForObject(r.readBtn)
		clock.live()[0].f()
	})
	waitFor(t, "name suggestions", func() bool { return suggestion(r.formObj, "Alice") != nil })
	Sync(func() {
		first, second := suggestion(r.formObj, "Alice"), suggestion(r.formObj, "Bob")
		at, ep := d.AbsolutePositionForObject(first), d.AbsolutePositionForObject(name)
		bottom := ep.Y + name.Size().Height
		if at.Y < bottom || at.Y > bottom+listInset(first) {
			t.Errorf("the first suggestion is at y %v; the name field ends at %v", at.Y, bottom)
		}
		if at.X < ep.X || at.X+first.Size().Width > ep.X+name.Size().Width+1 {
			t.Errorf("the suggestion spans x %v–%v; the field %v–%v", at.X, at.X+first.Size().Width, ep.X, ep.X+name.Size().Width)
		}
		if bp := d.AbsolutePositionForObject(second); bp.Y <= at.Y {
			t.Errorf("Bob (y %v) is not under Alice (y %v)", bp.Y, at.Y)
		}
		if p := d.AbsolutePositionForObject(style); p != stylePos {
			t.Errorf("the style field moved when the suggestions showed: %v → %v", stylePos, p)
		}
		if p := d.AbsolutePositionForObject(r.readBtn); p != readPos {
			t.Errorf("the Read button moved when the suggestions showed: %v → %v", readPos, p)
		}
		// Down, Down, Up: Alice; Enter takes her into the name field
		for _, k := range []fyne.KeyName{fyne.KeyDown, fyne.KeyDown, fyne.KeyUp, fyne.KeyReturn} {
			name.TypedKey(&fyne.KeyEvent{Name: k})
		}
		if vals, _ := r.params.Values(); vals["name"] != "Alice" || vals["lang"] != "" {
			t.Errorf("after Enter the values are %v, want name Alice only", vals)
		}
		if suggestion(r.formObj, "Bob") != nil {
			t.Error("the list stayed open after Enter")
		}
		name = r.params.form.FieldEntry("name")
		if w.win.Canvas().Focused() != fyne.Focusable(name) {
			t.Errorf("the focus went to %T, not the name field", w.win.Canvas().Focused())
		}
		// Down in the field opens the list again; Esc closes it
		name.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	})
	waitFor(t, "suggestions on Down", func() bool { return suggestion(r.formObj, "Bob") != nil })
	Sync(func() {
		name.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if suggestion(r.formObj, "Bob") != nil {
			t.Error("Esc left the list open")
		}
		if vals, _ := r.params.Values(); vals["name"] != "Alice" {
			t.Errorf("Esc changed the name to %q", vals["name"])
		}
		name.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	})
	waitFor(t, "suggestions again", func() bool { return suggestion(r.formObj, "Bob") != nil })
	Sync(func() {
		test.Tap(suggestion(r.formObj, "Bob"))
		if vals, _ := r.params.Values(); vals["name"] != "Bob" {
			t.Errorf("a click on Bob: name %q", vals["name"])
		}
		if !strings.Contains(r.expand.Identifier(), "/Bob") {
			t.Errorf("expansion %q", r.expand.Identifier())
		}
		// the last field's list lies over the Read button below it: a
		// click where a suggestion shows takes the suggestion
		style = r.params.form.FieldEntry("style")
		w.win.Canvas().Focus(style)
		style.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	})
	waitFor(t, "style suggestions", func() bool { return suggestion(r.formObj, "2") != nil })
	Sync(func() {
		b := suggestion(r.formObj, "2")
		at := d.AbsolutePositionForObject(b).Add(fyne.NewPos(b.Size().Width/4, b.Size().Height/2))
		test.TapCanvas(w.win.Canvas(), at)
		if vals, _ := r.params.Values(); vals["style"] != "2" {
			t.Errorf("a click on the suggestion 2 at %v: style %q", at, vals["style"])
		}
	})
}

// listInset is the room allowed between a field and its list: the list's
// border and inset.
func listInset(b *widget.Button) float32 { return b.MinSize().Height / 2 }

// TestSuggestionsFollowTheTheme: a list open while View › Theme switches
// takes the new theme's colours (its background kept the colours it
// opened with).
func TestSuggestionsFollowTheTheme(t *testing.T) {
	w, _, ss := connected(t, nil)
	r := ss.resources
	var name *esc.Entry
	Sync(func() {
		w.setTheme("dark")
		selectTab(ss, "Resources")
		r.list.Select(2)
		name = r.params.form.FieldEntry("name")
		w.win.Canvas().Focus(name)
		name.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	})
	waitFor(t, "suggestions", func() bool { return suggestion(r.formObj, "Alice") != nil })
	fill := func() color.Color {
		var c color.Color
		walkVisible(r.params.Layer(), func(o fyne.CanvasObject) {
			if b, ok := o.(*panelBg); ok && c == nil {
				c = test.WidgetRenderer(b).(*panelBgRenderer).rect.FillColor
			}
		})
		return c
	}
	var dark color.Color
	Sync(func() {
		if dark = fill(); dark != theme.Color(theme.ColorNameOverlayBackground) {
			t.Fatalf("the open list's background is %v in the dark theme, not its overlay colour", dark)
		}
		w.setTheme("light")
	})
	light := func() bool {
		c := theme.Color(theme.ColorNameOverlayBackground)
		return c != dark && fill() == c
	}
	waitFor(t, "the list in the light theme's colours", light)
	Sync(func() {
		if suggestion(r.formObj, "Alice") == nil {
			t.Error("the theme switch closed the list")
		}
	})
}

// TestDropPlace: the list goes under its field, above it when only there
// it fits, and, fitting nowhere, shortened on the larger side, never past
// the part of the pane shown (it ran off the bottom).
func TestDropPlace(t *testing.T) {
	for _, c := range []struct {
		name                                  string
		fieldTop, fieldBottom, h, top, bottom float32
		y, height                             float32
	}{
		{"room below", 100, 140, 200, 0, 600, 140, 200},
		{"room above only", 400, 440, 200, 0, 600, 200, 200},
		{"neither side, more below", 100, 140, 300, 0, 400, 140, 260},
		{"neither side, more above", 250, 290, 300, 0, 400, 0, 250},
		{"scrolled view", 350, 390, 200, 300, 600, 390, 200},
	} {
		y, h := dropPlace(c.fieldTop, c.fieldBottom, c.h, c.top, c.bottom)
		if y != c.y || h != c.height {
			t.Errorf("%s: the list at %v, %v tall; want at %v, %v tall", c.name, y, h, c.y, c.height)
		}
		if y < c.top || (y+h > c.bottom && h > 0) {
			t.Errorf("%s: the list (%v–%v) runs past the view (%v–%v)", c.name, y, y+h, c.top, c.bottom)
		}
	}
}
