package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// TestResourceReadOnSelect: selecting a resource reads it (resources/read)
// with no button to press, showing that it reads and then what it read;
// the list redrawn under a search does not read it again, Read again
// does; a template shows its variables' form and reads nothing until
// Read.
func TestResourceReadOnSelect(t *testing.T) {
	w, _, ss := connected(t, nil)
	r := ss.resources
	Sync(func() {
		_ = w.ShowScreenNow("Resources")
		r.list.Select(0) // fake://a
		if s := texts(r.content); !strings.Contains(s, "Reading fake://a…") {
			t.Errorf("while reading, the pane shows\n%s", s)
		}
		if !r.readBtn.Disabled() {
			t.Error("Read again can be pressed while the read runs")
		}
	})
	waitFor(t, "the contents read on selection", func() bool { return strings.Contains(texts(r.content), "contents of fake://a") })
	Sync(func() {
		if r.readBtn.Disabled() || r.readBtn.Text != "Read again" {
			t.Errorf("after the read the button reads %q (disabled %v), want Read again", r.readBtn.Text, r.readBtn.Disabled())
		}
		test.Type(r.search, "fake") // the row stays listed: it is selected again, not read again
		r.list.Refresh()
		if s := texts(r.content); strings.Contains(s, "Reading") || !strings.Contains(s, "contents of fake://a") {
			t.Errorf("a search that keeps the resource listed read it again:\n%s", s)
		}
		r.search.SetText("")
		test.Tap(r.readBtn)
		if s := texts(r.content); !strings.Contains(s, "Reading fake://a…") {
			t.Errorf("Read again does not read:\n%s", s)
		}
	})
	waitFor(t, "read again", func() bool { return strings.Contains(texts(r.content), "contents of fake://a") })
	Sync(func() { r.list.Select(1) }) // fake://bin
	waitFor(t, "another resource read on selection", func() bool { return strings.Contains(texts(r.content), "3 bytes") })
	Sync(func() {
		r.list.Select(2) // the greet template
		if s := texts(r.content); s != "" {
			t.Errorf("selecting a template read something:\n%s", s)
		}
		if r.readBtn.Text != "Read" || !strings.Contains(texts(r.vars), "lang *") {
			t.Errorf("a template shows %q and\n%s", r.readBtn.Text, texts(r.vars))
		}
		// Read with its path variables empty says which to fill in, at
		// the fields and below, and sends nothing
		test.Tap(r.readBtn)
		s := texts(r.content)
		if !strings.Contains(s, "Fill in the required variables lang, name, then read the template again") || strings.Contains(s, "Reading") {
			t.Errorf("Read with empty variables shows\n%s", s)
		}
		if v := texts(r.vars); !strings.Contains(v, "lang is required") || !strings.Contains(v, "name is required") {
			t.Errorf("the empty variables are not marked:\n%s", v)
		}
	})
}

// TestResourceResultRevealed: in a window too short for a template's
// variables and what it read, Read scrolls the pane to the contents'
// head.
func TestResourceResultRevealed(t *testing.T) {
	w, _, ss := connected(t, nil)
	r := ss.resources
	var vars []string
	vals := map[string]string{}
	for i := range 10 {
		v := fmt.Sprintf("v%d", i)
		vars = append(vars, "{"+v+"}")
		vals[v] = fmt.Sprint(i)
	}
	tmpl := "fake://many/" + strings.Join(vars, "/")
	contentTop := func() (top, offset, height float32) { return placeIn(r.formObj, r.content) }
	Sync(func() {
		_ = w.ShowScreenNow("Resources")
		w.win.Resize(fyne.NewSize(1280, 430))
		listResources(ss, r.resources, append(r.templates, ResourceTemplate{URITemplate: tmpl, Name: "many"}))
		r.selectKey("tmpl:" + tmpl)
		if err := r.params.Set(vals); err != nil {
			t.Fatal(err)
		}
	})
	Sync(func() {
		if top, off, h := contentTop(); top < off+h {
			t.Fatalf("the contents (at %v) are in view at %v+%v px; the test needs them below the fold", top, off, h)
		}
		r.onRead()
	})
	waitFor(t, "read", func() bool { return strings.Contains(texts(r.content), "contents of fake://many/0/1/2") })
	Sync(func() {
		if !headShown(r.formObj, r.content) {
			top, off, h := contentTop()
			t.Errorf("the contents' head is at %v, the pane shows %v–%v: it is not brought into view", top, off, off+h)
		}
	})
}
