package requests

import (
	"encoding/json"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/schemaform"
	"github.com/spyglass-mcp/spyglass/ui/esc"
	"github.com/spyglass-mcp/spyglass/ui/form"
)

// TestMain gives Fyne a locale it can parse.
func TestMain(m *testing.M) {
	if l := os.Getenv("LANG"); l == "" || l == "C" || l == "POSIX" {
		os.Setenv("LANG", "en_US.UTF-8")
	}
	os.Exit(m.Run())
}

// buildForm is the FormBuilder the adapter supplies (tests only import
// core/schemaform; the package itself does not).
func buildForm(schema json.RawMessage) (*form.Form, error) {
	m, err := schemaform.Build(schema)
	if err != nil {
		return nil, err
	}
	return form.New(m, &form.Options{Elicitation: true, NoToggle: true}), nil
}

// fakeResponder answers like core/sampling's mock: the template (or an
// override) as text; with CallTools and tools offered, a call of the first
// tool.
type fakeResponder struct{}

func (fakeResponder) Draft(p Profile, params json.RawMessage) string {
	return p.Template
}

func (fakeResponder) Respond(p Profile, params json.RawMessage) (json.RawMessage, error) {
	if p.Provider != ProviderMock {
		return nil, errors.New("this profile needs a person to answer")
	}
	sp, _ := parseSampling(params)
	model := p.Model
	if model == "" {
		model = DefaultModel
	}
	if p.CallTools && len(sp.Tools) > 0 && !sp.hasToolResults() {
		return json.RawMessage(`{"role":"assistant","content":[{"type":"tool_use","id":"mock_1","name":"` + sp.Tools[0].Name + `","input":{"city":"Paris"}}],"model":"` + model + `","stopReason":"toolUse"}`), nil
	}
	text, _ := json.Marshal(p.Template)
	return json.RawMessage(`{"role":"assistant","content":{"type":"text","text":` + string(text) + `},"model":"` + model + `","stopReason":"endTurn"}`), nil
}

// fakeStore keeps profiles in memory and counts saves.
type fakeStore struct {
	set   ProfileSet
	saves int
	fail  error
}

func (s *fakeStore) Load() (ProfileSet, error) { return s.set.clone(), nil }
func (s *fakeStore) Save(ps ProfileSet) error {
	if s.fail != nil {
		return s.fail
	}
	s.saves++
	s.set = ps.clone()
	return nil
}

func testProfiles() ProfileSet {
	return ProfileSet{Active: "Quick Mock", Profiles: []Profile{
		{Name: "Quick Mock", Provider: ProviderMock, Template: "This is a mock LLM response for testing purposes.", Model: "mock-model-1.0", StopReason: StopEndTurn},
		{Name: "Tool Caller", Provider: ProviderMock, Template: "Done.", CallTools: true},
		{Name: "Manual Review", Provider: ProviderManual},
	}}
}

// walk visits o and everything shown inside it, depth first (hidden
// objects and what they hold are skipped).
func walk(o fyne.CanvasObject, fn func(fyne.CanvasObject)) {
	if o == nil || !o.Visible() {
		return
	}
	fn(o)
	switch c := o.(type) {
	case *fyne.Container:
		for _, x := range c.Objects {
			walk(x, fn)
		}
	case *widget.Accordion:
		for _, it := range c.Items {
			walk(it.Detail, fn)
		}
	case *esc.Accordion:
		for _, it := range c.Items {
			walk(it.Detail, fn)
		}
	case fyne.Widget:
		switch o.(type) {
		case *widget.Entry, *widget.Select, *widget.Label, *widget.Button, *esc.Button, *widget.RichText, textField:
			return
		}
		if r := test.WidgetRenderer(c); r != nil {
			for _, x := range r.Objects() {
				walk(x, fn)
			}
		}
	}
}

// button finds the visible button with text.
func button(t *testing.T, o fyne.CanvasObject, text string) *widget.Button {
	t.Helper()
	var found *widget.Button
	walk(o, func(x fyne.CanvasObject) {
		if b, ok := esc.AsButton(x); ok && b.Text == text && found == nil {
			found = b
		}
	})
	if found == nil {
		t.Fatalf("no button %q", text)
	}
	return found
}

// textField is an entry, or a widget that embeds one.
type textField interface {
	fyne.Focusable
	SetText(string)
}

// entries returns every text field inside o, in drawing order.
func entries(o fyne.CanvasObject) []textField {
	var out []textField
	walk(o, func(x fyne.CanvasObject) {
		if e, ok := x.(textField); ok {
			out = append(out, e)
		}
	})
	return out
}

// texts returns every label, button and rich text shown inside o, joined.
func texts(o fyne.CanvasObject) string {
	var b strings.Builder
	walk(o, func(x fyne.CanvasObject) {
		if !x.Visible() {
			return
		}
		switch v := x.(type) {
		case *widget.Label:
			b.WriteString(v.Text + "\n")
		case *widget.Button:
			b.WriteString("[" + v.Text + "]\n")
		case *esc.Button:
			b.WriteString("[" + v.Text + "]\n")
		case *widget.RichText:
			b.WriteString(v.String() + "\n")
		case *widget.Check:
			b.WriteString("[x] " + v.Text + "\n")
		case *esc.Check: // the checks of ui/form
			b.WriteString("[x] " + v.Text + "\n")
		case interface{ Identifier() string }: // a URL broken into lines (urltext.go)
			b.WriteString(v.Identifier() + "\n")
		}
	})
	return b.String()
}

// window shows o in a test window of size w×h, with the default theme.
func window(t *testing.T, o fyne.CanvasObject, w, h float32) fyne.Window {
	t.Helper()
	win := test.NewTempWindow(t, o)
	win.Resize(fyne.NewSize(w, h))
	return win
}

// newApp starts a headless app with the default (dark) theme.
func newApp(t *testing.T) {
	t.Helper()
	a := test.NewTempApp(t)
	a.Settings().SetTheme(theme.DefaultTheme())
}

// capture renders win to $REQUESTS_PNG_DIR/name.png with the software
// painter (only when the variable is set).
func capture(t *testing.T, win fyne.Window, name string) {
	t.Helper()
	dir := os.Getenv("REQUESTS_PNG_DIR")
	if dir == "" {
		return
	}
	// Lay the whole tree out again, as a real window does every frame
	// (the test canvas only does it on resize).
	size := win.Canvas().Size()
	win.Resize(size.AddWidthHeight(1, 0))
	win.Resize(size)
	img := win.Canvas().Capture()
	f, err := os.Create(filepath.Join(dir, name+".png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

// scrolled wraps o for a window.
func scrolled(o fyne.CanvasObject) fyne.CanvasObject {
	return container.NewVScroll(container.New(&rightInset{w: 12}, o))
}

// compact re-encodes JSON for comparisons.
func compact(t *testing.T, raw []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("not JSON: %s", raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
