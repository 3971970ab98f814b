package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
)

// TestServerFormArgumentsOnePerLine: the Arguments field shows one
// argument a line, wraps a long one instead of scrolling it sideways (no
// horizontal scroll line of its own), reads a pasted command line, and
// saves the arguments it was given unchanged — quotes, backslashes and
// line ends in them included.
func TestServerFormArgumentsOnePerLine(t *testing.T) {
	b := newFakeBackend("one")
	w := newTestWindow(t, b, nil)
	long := "/home/me/projects/" + strings.Repeat("deeply-nested-folder/", 8) + "server.js"
	args := []string{"-y", "@modelcontextprotocol/server-filesystem", "--root", "/tmp/My Project ä", long, "",
		`--config={"root": "/tmp"}`, `C:\Program Files\node\server.js`, "it's \"quoted\"", "two\nlines"}
	Sync(func() {
		f := &serverForm{w: w, base: ServerConfig{}}
		f.errLblInit()
		obj := f.buildUI(ServerConfig{Name: "fs", Transport: "stdio", Command: "npx", Args: args})
		win := test.NewTempWindow(t, container.NewVScroll(obj))
		win.Resize(fyne.NewSize(640, 700))

		want := "-y\n@modelcontextprotocol/server-filesystem\n--root\n\"/tmp/My Project ä\"\n" + long + "\n\"\"\n" +
			`'--config={"root": "/tmp"}'` + "\n" + `"C:\Program Files\node\server.js"` + "\n" + `"it's "'"'"quoted"'"'` + "\n\"two\nlines\""
		if f.args.Text != want {
			t.Errorf("the field shows %q, want one argument a line %q", f.args.Text, want)
		}
		if !f.args.MultiLine || f.args.Wrapping == fyne.TextWrapOff {
			t.Errorf("the field is not a wrapping multi-line entry (multi %v, wrap %v)", f.args.MultiLine, f.args.Wrapping)
		}
		if f.args.AcceptsTab() {
			t.Errorf("Tab in the field types a tab instead of moving on")
		}
		for _, o := range test.WidgetRenderer(f.args).Objects() {
			if s, ok := o.(*container.Scroll); ok {
				if s.Direction != container.ScrollVerticalOnly {
					t.Errorf("the field scrolls sideways (direction %v): it draws a horizontal scroll line", s.Direction)
				}
				if cw, sw := s.Content.MinSize().Width, s.Size().Width; cw > sw+0.5 {
					t.Errorf("the text is %v wide in a field of %v: the long argument is cut, not wrapped", cw, sw)
				}
			}
		}
		if !f.onSave() {
			t.Fatalf("save refused: %s", f.errLbl.Text)
		}
		got := b.Servers()
		if g := got[len(got)-1]; strings.Join(g.Args, "|") != strings.Join(args, "|") {
			t.Errorf("saved %q, want %q", g.Args, args)
		}

		// a command line pasted on one line still splits
		f.args.SetText("-y pkg --name \"a b\"\n--verbose")
		a, err := splitArgs(f.args.Text)
		if err != nil || strings.Join(a, "|") != "-y|pkg|--name|a b|--verbose" {
			t.Errorf("read %q, %v", a, err)
		}
		f.args.SetText("--name \"a b")
		if f.onSave() {
			t.Error("an unclosed quote was saved")
		}
	})
}
