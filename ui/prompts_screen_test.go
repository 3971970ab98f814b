package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
)

// setPrompts lists ps on the Prompts screen as a prompts/list answer
// would (the fake server lists one).
func setPrompts(ss *serverScreens, ps []Prompt) {
	ss.prompts.prompts = ps
	ss.prompts.hay = nil
	ss.prompts.applyFilter()
}

// TestPromptsSearch: the Prompts list has a search box like Tools and
// Resources, counting "N of M prompts" while it hides some; the prompt
// shown stays shown, with what was typed in its form, while the search
// still lists it; the palette's Open prompt clears a search that hides
// its prompt.
func TestPromptsSearch(t *testing.T) {
	w, _, ss := connected(t, nil)
	p := ss.prompts
	Sync(func() {
		setPrompts(ss, []Prompt{
			{Name: "summarize", Description: "Summarize a text"},
			{Name: "translate", Description: "Translate a text", Arguments: []PromptArgument{{Name: "to"}}},
			{Name: "greet", Title: "Say hello", Arguments: []PromptArgument{{Name: "who"}}},
		})
		if p.status.Text != "3 prompts" {
			t.Errorf("the count reads %q, want 3 prompts", p.status.Text)
		}
		if !p.search.Visible() || p.search.PlaceHolder != "Search prompts" {
			t.Errorf("no search box above the prompts (visible %v, %q)", p.search.Visible(), p.search.PlaceHolder)
		}
		test.Type(p.search, "text")
		if p.status.Text != "2 of 3 prompts" || p.list.Length() != 2 {
			t.Errorf("searching text: %q, %d rows", p.status.Text, p.list.Length())
		}
		p.search.SetText("")
		test.Type(p.search, "HELLO") // a title matches, in any case
		if p.status.Text != "1 of 3 prompts" || p.list.Length() != 1 || p.shown[0].Name != "greet" {
			t.Errorf("searching HELLO: %q, %v", p.status.Text, p.shown)
		}
		p.list.Select(0)
		test.Type(formEntry(t, p.formBox, 0), "Ada")
		p.search.SetText("") // all three again: greet stays shown, its form as typed
		if p.status.Text != "3 prompts" || p.cur == nil || p.cur.Name != "greet" {
			t.Errorf("after clearing the search: %q, shown %+v", p.status.Text, p.cur)
		}
		if got := formEntry(t, p.formBox, 0).Text; got != "Ada" {
			t.Errorf("the search cleared the argument typed: %q", got)
		}
		test.Type(p.search, "zzz")
		if want := `No prompt matches "zzz".`; p.status.Text != want {
			t.Errorf("no match reads %q, want %q", p.status.Text, want)
		}
	})
	Sync(func() { w.openPrompt("summarize") })
	Sync(func() {
		if p.search.Text != "" || p.cur == nil || p.cur.Name != "summarize" {
			t.Errorf("Open prompt under a search hiding it: search %q, shown %+v", p.search.Text, p.cur)
		}
	})
}

// TestPromptResultRevealed: in a window too short for a prompt's form
// and its messages, Get prompt scrolls the form to the messages' head;
// with room for them the form's scroll stays where it was.
func TestPromptResultRevealed(t *testing.T) {
	w, _, ss := connected(t, nil)
	p := ss.prompts
	var args []PromptArgument
	for i := range 12 {
		args = append(args, PromptArgument{Name: fmt.Sprintf("arg%02d", i), Description: "One of many"})
	}
	msgsTop := func() (top, offset, height float32) { return placeIn(p.formObj, p.msgs) }
	get := func(want string) {
		t.Helper()
		Sync(func() { p.onGet() })
		waitFor(t, want, func() bool { return strings.Contains(texts(p.msgs), want) })
	}
	Sync(func() {
		_ = w.ShowScreenNow("Prompts")
		setPrompts(ss, []Prompt{{Name: "short"}, {Name: "long", Arguments: args}})
		p.list.Select(0)
	})
	get("hello")
	Sync(func() {
		if _, off, _ := msgsTop(); off != 0 {
			t.Errorf("with room for the messages the form scrolled to %v", off)
		}
	})
	Sync(func() {
		w.win.Resize(fyne.NewSize(1280, 430))
		p.list.Select(1)
	})
	Sync(func() {
		if top, off, h := msgsTop(); top < off+h {
			t.Fatalf("the messages (at %v) are in view at %v+%v px; the test needs them below the fold", top, off, h)
		}
	})
	get("hello")
	Sync(func() {
		if !headShown(p.formObj, p.msgs) {
			top, off, h := msgsTop()
			t.Errorf("the messages' head is at %v, the form shows %v–%v: it is not brought into view", top, off, off+h)
		}
		// the user scrolls up until only the messages' head shows, at the
		// bottom edge
		top, _, h := msgsTop()
		p.formObj.(*container.Scroll).ScrollToOffset(fyne.NewPos(0, top-h+30))
	})
	get("hello")
	Sync(func() {
		if !headShown(p.formObj, p.msgs) {
			top, off, h := msgsTop()
			t.Errorf("with only its head showing at the bottom edge, the answer stays at %v in %v–%v", top, off, off+h)
		}
	})
}

// placeIn is where o stands in the scroll s: its top in s's content, and
// the part of the content s shows (from offset, height high).
func placeIn(s fyne.CanvasObject, o fyne.CanvasObject) (top, offset, height float32) {
	sc := s.(*container.Scroll)
	d := fyne.CurrentApp().Driver()
	return d.AbsolutePositionForObject(o).Y - d.AbsolutePositionForObject(sc.Content).Y, sc.Offset.Y, sc.Size().Height
}

// headShown reports whether the scroll s shows o's head near its top, or
// is scrolled to its end with o's head in view: an answer brought into
// view.
func headShown(s fyne.CanvasObject, o fyne.CanvasObject) bool {
	top, off, h := placeIn(s, o)
	atEnd := off >= s.(*container.Scroll).Content.Size().Height-h-1
	return top >= off && (top <= off+h/2 || atEnd && top < off+h)
}
