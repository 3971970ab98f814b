package form

import (
	"errors"
	"image/png"
	"os"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/schemaform"
	"github.com/spyglass-mcp/spyglass/ui/esc"
)

const everyKind = `{
  "type": "object",
  "properties": {
    "name":    {"type": "string", "title": "Name", "description": "Who you are", "minLength": 2},
    "bio":     {"type": "string", "format": "textarea"},
    "color":   {"type": "string", "enum": ["red", "green", "blue"]},
    "size":    {"type": "string", "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]},
    "perms":   {"type": "array", "items": {"anyOf": [{"const": "read", "title": "Read"}, {"const": "write", "title": "Write"}]}},
    "home":    {"type": "string", "format": "uri"},
    "ratio":   {"type": "number", "minimum": 0, "maximum": 1},
    "count":   {"type": "integer", "minimum": 1},
    "big":     {"type": "integer"},
    "force":   {"type": "boolean", "title": "Force"},
    "tags":    {"type": "array", "items": {"type": "string"}},
    "server":  {"type": "object", "properties": {"host": {"type": "string"}, "port": {"type": "integer"}}},
    "limit":   {"type": ["integer", "null"]},
    "extra":   {"anyOf": [{"type": "string"}, {"type": "object"}]}
  },
  "required": ["name", "count"]
}`

func newForm(t *testing.T, schema string, opts *Options) (*Form, fyne.Window) {
	t.Helper()
	test.NewTempApp(t)
	model, err := schemaform.Build([]byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	f := New(model, opts)
	w := test.NewTempWindow(t, container.NewVScroll(f))
	w.Resize(fyne.NewSize(600, 900))
	return f, w
}

// ctl returns the control of the field at path.
func ctl(t *testing.T, f *Form, path string) fyne.CanvasObject {
	t.Helper()
	st, ok := f.state.Find(path)
	if !ok {
		t.Fatalf("no field at %s", path)
	}
	c := f.controls[st]
	if c == nil {
		t.Fatalf("no control for %s", path)
	}
	return c
}

// find returns the first object of type T inside o (depth first).
func find[T any](o fyne.CanvasObject) (T, bool) {
	if x, ok := o.(T); ok {
		return x, true
	}
	var objs []fyne.CanvasObject
	switch c := o.(type) {
	case *esc.Entry: // an esc Entry is its widget.Entry
		objs = []fyne.CanvasObject{&c.Entry}
	case *fyne.Container:
		objs = c.Objects
	case *widget.Accordion:
		for _, it := range c.Items {
			objs = append(objs, it.Detail)
		}
	case *esc.Accordion:
		for _, it := range c.Items {
			objs = append(objs, it.Detail)
		}
	case fyne.Widget:
		objs = test.WidgetRenderer(c).Objects()
	}
	for _, ch := range objs {
		if x, ok := find[T](ch); ok {
			return x, true
		}
	}
	var zero T
	return zero, false
}

func entry(t *testing.T, o fyne.CanvasObject) *widget.Entry {
	t.Helper()
	e, ok := find[*widget.Entry](o)
	if !ok {
		t.Fatalf("no entry in %T", o)
	}
	return e
}

func values(t *testing.T, f *Form) string {
	t.Helper()
	v, err := f.Values()
	if err != nil {
		t.Fatal(err)
	}
	return string(v)
}

// TestTypeIntoEveryControl types into each kind of control and checks the
// exact JSON that would be sent.
func TestTypeIntoEveryControl(t *testing.T) {
	f, w := newForm(t, everyKind, nil)
	if got := values(t, f); got != `{}` {
		t.Fatalf("empty form sends %s", got)
	}
	test.Type(entry(t, ctl(t, f, "/name")), "Ada")
	test.Type(entry(t, ctl(t, f, "/bio")), "line one")
	bio := entry(t, ctl(t, f, "/bio"))
	bio.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	test.Type(bio, "line \"two\"")
	ctl(t, f, "/color").(*esc.Select).SetSelectedIndex(3) // after "(not set)"
	ctl(t, f, "/size").(*esc.Select).SetSelectedIndex(1)  // "Small"
	perms := ctl(t, f, "/perms").(*fyne.Container)
	test.Tap(perms.Objects[1].(*esc.Check)) // Write
	test.Tap(perms.Objects[0].(*esc.Check)) // Read
	test.Type(entry(t, ctl(t, f, "/home")), "https://example.com/a%20b")
	ratio := entry(t, ctl(t, f, "/ratio"))
	test.Type(ratio, "0.25")
	count := entry(t, ctl(t, f, "/count"))
	test.Type(count, "15")
	test.Type(entry(t, ctl(t, f, "/big")), "123456789012345678901234567890")
	test.Tap(ctl(t, f, "/force").(*esc.Check))
	add, ok := find[*esc.Button](ctl(t, f, "/tags"))
	if !ok || add.Text != "Add item" {
		t.Fatal("no add button")
	}
	test.Tap(add)
	test.Type(entry(t, ctl(t, f, "/tags/0")), "x")
	test.Type(entry(t, ctl(t, f, "/server/host")), "localhost")
	test.Type(entry(t, ctl(t, f, "/server/port")), "5432")
	limit := ctl(t, f, "/limit")
	nullCheck, _ := find[*esc.Check](limit)
	test.Tap(nullCheck)
	test.Type(entry(t, ctl(t, f, "/extra")), `{"k": "\u00e9", "n": 1.50}`)

	want := `{"name":"Ada","bio":"line one\nline \"two\"","color":"blue","size":"s","perms":["write","read"],` +
		`"home":"https://example.com/a%20b","ratio":0.25,"count":15,"big":123456789012345678901234567890,"force":true,` +
		`"tags":["x"],"server":{"host":"localhost","port":5432},"limit":null,"extra":{"k":"\u00e9","n":1.50}}`
	if got := values(t, f); got != want {
		t.Errorf("sent\n%s\nwant\n%s", got, want)
	}
	if issues := f.Validate(); len(issues) != 0 {
		t.Errorf("unexpected issues: %v", issues)
	}
	w.Resize(fyne.NewSize(600, 1700))
	capture(t, w, "/tmp/spyglass-form.png")
	if err := setJSONMode(f, true); err != nil {
		t.Fatal(err)
	}
	w.Resize(fyne.NewSize(600, 700))
	capture(t, w, "/tmp/spyglass-form-json.png")
	if err := setJSONMode(f, false); err != nil {
		t.Fatal(err)
	}

	// Unchecking, clearing and un-nulling leave fields out again.
	test.Tap(perms.Objects[0].(*esc.Check))
	test.Tap(perms.Objects[1].(*esc.Check))
	test.Tap(nullCheck)
	entry(t, ctl(t, f, "/server/host")).SetText("")
	entry(t, ctl(t, f, "/server/port")).SetText("")
	want = `{"name":"Ada","bio":"line one\nline \"two\"","color":"blue","size":"s",` +
		`"home":"https://example.com/a%20b","ratio":0.25,"count":15,"big":123456789012345678901234567890,"force":true,` +
		`"tags":["x"],"extra":{"k":"\u00e9","n":1.50}}`
	if got := values(t, f); got != want {
		t.Errorf("after clearing, sent\n%s\nwant\n%s", got, want)
	}
}

// TestArrayAddRemoveReorder drives the list buttons.
func TestArrayAddRemoveReorder(t *testing.T) {
	f, _ := newForm(t, `{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}}}}`, nil)
	list := ctl(t, f, "/tags").(*fyne.Container)
	add := list.Objects[1].(*fyne.Container).Objects[0].(*esc.Button)
	for _, s := range []string{"a", "b", "c"} {
		test.Tap(add)
		st, _ := f.state.Find("/tags")
		test.Type(entry(t, f.controls[st.Items[len(st.Items)-1]]), s)
	}
	buttons := func(i int) []fyne.CanvasObject {
		item := list.Objects[0].(*fyne.Container).Objects[i].(*fyne.Container)
		for _, o := range item.Objects {
			if c, ok := o.(*fyne.Container); ok && len(c.Objects) == 3 {
				if _, ok := c.Objects[0].(*esc.Button); ok {
					return c.Objects
				}
			}
		}
		t.Fatal("no item buttons")
		return nil
	}
	test.Tap(buttons(2)[0].(*esc.Button)) // c up → a c b
	test.Tap(buttons(0)[1].(*esc.Button)) // a down → c a b
	test.Tap(buttons(2)[2].(*esc.Button)) // remove b → c a
	if got := values(t, f); got != `{"tags":["c","a"]}` {
		t.Errorf("sent %s", got)
	}
}

// TestJSONToggleLosesNothing switches form → JSON → form → JSON.
func TestJSONToggleLosesNothing(t *testing.T) {
	f, _ := newForm(t, everyKind, nil)
	test.Type(entry(t, ctl(t, f, "/name")), "Ada")
	if err := setJSONMode(f, true); err != nil {
		t.Fatal(err)
	}
	if got := f.jsonEntry.Text; got != "{\n  \"name\": \"Ada\"\n}" {
		t.Fatalf("JSON editor shows %q", got)
	}
	typed := "{\n  \"name\": \"Ad\\u00e9\",  \"count\": 1e0,\n  \"unknown\": {\"kept\": [1, 2.0]}, \"big\": 98765432109876543210\n}"
	f.jsonEntry.SetText("")
	test.Type(f.jsonEntry, typed)
	if f.jsonEntry.Text != typed {
		t.Fatalf("the editor changed the typed text: %q", f.jsonEntry.Text)
	}
	if got, want := values(t, f), `{"name":"Ad\u00e9","count":1e0,"unknown":{"kept":[1,2.0]},"big":98765432109876543210}`; got != want {
		t.Fatalf("JSON mode sends %s, want %s", got, want)
	}
	if err := setJSONMode(f, false); err != nil {
		t.Fatal(err)
	}
	// count 1e0 does not fit an integer entry: it is kept as JSON.
	if _, ok := esc.AsEntry(ctl(t, f, "/count")); !ok {
		t.Errorf("count is shown as %T, want a JSON entry", ctl(t, f, "/count"))
	}
	if got, want := values(t, f), `{"name":"Ad\u00e9","count":1e0,"unknown":{"kept":[1,2.0]},"big":98765432109876543210}`; got != want {
		t.Fatalf("form sends %s, want %s", got, want)
	}
	// Back to JSON without edits: exactly the typed text.
	if err := setJSONMode(f, true); err != nil {
		t.Fatal(err)
	}
	if f.jsonEntry.Text != typed {
		t.Fatalf("JSON editor shows %q, want the typed text", f.jsonEntry.Text)
	}
	// After an edit in the form, the JSON is regenerated with every value.
	_ = setJSONMode(f, false)
	name := entry(t, ctl(t, f, "/name"))
	name.CursorColumn = len([]rune(name.Text))
	test.Type(name, "!")
	_ = setJSONMode(f, true)
	want := "{\n  \"name\": \"Adé!\",\n  \"count\": 1e0,\n  \"unknown\": {\n    \"kept\": [\n      1,\n      2.0\n    ]\n  },\n  \"big\": 98765432109876543210\n}"
	if f.jsonEntry.Text != want {
		t.Fatalf("JSON editor shows\n%s\nwant\n%s", f.jsonEntry.Text, want)
	}
}

// TestInvalidJSONIsNotSent checks the position shown and that the form
// refuses to take invalid JSON.
func TestInvalidJSONIsNotSent(t *testing.T) {
	f, _ := newForm(t, everyKind, &Options{JSON: true})
	f.jsonEntry.SetText("")
	test.Type(f.jsonEntry, "{\"name\": \"x\",\n  \"count\" 3}")
	_, err := f.Values()
	var se *schemaform.SyntaxError
	if !errors.Is(err, ErrNotSent) || !errors.As(err, &se) || se.Line != 2 || se.Col != 11 {
		t.Fatalf("Values error %v, want ErrNotSent at 2:11", err)
	}
	if !f.jsonErr.Visible() || !strings.Contains(f.jsonErr.Text, "line 2, column 11") {
		t.Errorf("error label %q (visible %v)", f.jsonErr.Text, f.jsonErr.Visible())
	}
	if l, c := f.jsonEdit.Problem(); l != 2 || c != 11 {
		t.Errorf("the editor marks %d:%d, want the label's 2:11", l, c)
	}
	f.mode.SetSelected("Form")
	if !f.jsonMode || f.mode.Selected != "JSON" {
		t.Error("switched to the form with invalid JSON")
	}
	if f.jsonEntry.Text != "{\"name\": \"x\",\n  \"count\" 3}" {
		t.Error("the invalid text was changed")
	}
	issues := f.Validate()
	if len(issues) != 1 || issues[0].Code != schemaform.CodeJSON {
		t.Errorf("Validate: %v", issues)
	}
}

// TestErrorsNextToFields checks live and on-send problems under fields.
func TestErrorsNextToFields(t *testing.T) {
	f, _ := newForm(t, everyKind, nil)
	count := entry(t, ctl(t, f, "/count"))
	test.Type(count, "0")
	st, _ := f.state.Find("/count")
	if r := f.rows[st]; !r.err.Visible() || r.err.Text != "must be at least 1" {
		t.Errorf("count error %q visible %v", r.err.Text, r.err.Visible())
	}
	test.Type(entry(t, ctl(t, f, "/home")), "not a uri")
	issues := f.Validate()
	name, _ := f.state.Find("/name")
	if r := f.rows[name]; !r.err.Visible() || r.err.Text != "Name is required" {
		t.Errorf("name error %q visible %v", r.err.Text, r.err.Visible())
	}
	home, _ := f.state.Find("/home")
	if r := f.rows[home]; !strings.Contains(r.err.Text, "absolute URI") {
		t.Errorf("home error %q", r.err.Text)
	}
	if len(issues) != 3 {
		t.Errorf("issues: %v", issues)
	}
	// Sending anyway is the caller's choice: Values still works.
	if got := values(t, f); got != `{"home":"not a uri","count":0}` {
		t.Errorf("sent %s", got)
	}
}

// TestSetValuesResetAndDefaults checks loading remembered values and
// resetting to defaults.
func TestSetValuesResetAndDefaults(t *testing.T) {
	schema := `{"type":"object","properties":{"a":{"type":"string","default":"x"},"b":{"type":"boolean","default":true},"n":{"type":"number"}}}`
	f, _ := newForm(t, schema, &Options{Values: []byte(`{"n": 2.50, "zz": [1]}`)})
	if got := values(t, f); got != `{"n":2.50,"zz":[1]}` {
		t.Fatalf("loaded %s", got)
	}
	if e := entry(t, ctl(t, f, "/n")); e.Text != "2.50" {
		t.Errorf("n shows %q", e.Text)
	}
	changed := 0
	f.OnChanged = func() { changed++ }
	test.Tap(f.resetBtn)
	if got := values(t, f); got != `{"a":"x","b":true}` {
		t.Errorf("after reset %s", got)
	}
	if changed == 0 {
		t.Error("OnChanged not called")
	}
}

// TestElicitationWarning shows the restriction warning.
func TestElicitationWarning(t *testing.T) {
	f, _ := newForm(t, `{"type":"object","properties":{"o":{"type":"object","properties":{"a":{"type":"string"}}}}}`, &Options{Elicitation: true})
	if !f.notes.Visible() || !strings.Contains(f.notes.Text, "nested objects") {
		t.Errorf("notes %q visible %v", f.notes.Text, f.notes.Visible())
	}
}

// TestMultiLineToggle switches a string entry to several lines.
func TestMultiLineToggle(t *testing.T) {
	f, _ := newForm(t, `{"type":"object","properties":{"s":{"type":"string"}}}`, nil)
	e := entry(t, ctl(t, f, "/s"))
	if e.MultiLine {
		t.Fatal("starts multi-line")
	}
	test.Type(e, "a")
	toggle, _ := esc.AsButton(e.ActionItem)
	test.Tap(toggle)
	e2 := entry(t, ctl(t, f, "/s"))
	if !e2.MultiLine || e2.Text != "a" {
		t.Fatalf("after toggle: multi %v text %q", e2.MultiLine, e2.Text)
	}
	e2.CursorColumn = 1
	e2.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	test.Type(e2, "b")
	if got := values(t, f); got != `{"s":"a\nb"}` {
		t.Errorf("sent %s", got)
	}
}

// capture renders the window with the software painter into a PNG.
func capture(t *testing.T, w fyne.Window, path string) {
	t.Helper()
	sz := w.Canvas().Size()
	w.Resize(sz.Add(fyne.NewSize(1, 1)))
	w.Resize(sz)
	img := w.Canvas().Capture()
	out, err := os.Create(path)
	if err != nil {
		t.Logf("capture: %v", err)
		return
	}
	defer out.Close()
	if err := png.Encode(out, img); err != nil {
		t.Logf("capture: %v", err)
	}
}

// TestValueThatDoesNotFit shows a loaded value that no control can hold
// as JSON, keeps it, and can go back to the control.
func TestValueThatDoesNotFit(t *testing.T) {
	f, _ := newForm(t, `{"type":"object","properties":{"n":{"type":"integer"},"c":{"enum":["a","b"]}}}`,
		&Options{Values: []byte(`{"n":"twelve","c":"z"}`)})
	if got := values(t, f); got != `{"n":"twelve","c":"z"}` {
		t.Fatalf("sent %s", got)
	}
	n := entry(t, ctl(t, f, "/n"))
	if n.Text != `"twelve"` || !n.MultiLine {
		t.Fatalf("n shown as %q", n.Text)
	}
	st, _ := f.state.Find("/n")
	var back *esc.Button
	for _, o := range f.rows[st].box.Objects {
		if b, ok := find[*esc.Button](o); ok && strings.HasPrefix(b.Text, "Clear it") {
			back = b
		}
	}
	if back == nil {
		t.Fatal("no button back to the control")
	}
	test.Tap(back)
	test.Type(entry(t, ctl(t, f, "/n")), "12")
	if got := values(t, f); got != `{"c":"z","n":12}` && got != `{"n":12,"c":"z"}` {
		t.Fatalf("sent %s", got)
	}
}

// TestWholeDocumentIssues shows an issue that belongs to no field above
// the fields, and renders the form with errors.
func TestWholeDocumentIssues(t *testing.T) {
	schema := `{"type":"object","additionalProperties":false,"properties":{
	  "host":{"type":"string","title":"Host","description":"The database server.","default":"localhost"},
	  "port":{"type":"integer","title":"Port","minimum":1,"maximum":65535,"default":5432},
	  "database":{"type":"string","title":"Database","minLength":1},
	  "ssl":{"type":"string","title":"SSL Mode","oneOf":[{"const":"disable","title":"Disable"},{"const":"require","title":"Require"}]}},
	  "required":["host","port","database"]}`
	f, w := newForm(t, schema, &Options{Values: []byte(`{"host":"db","port":99999,"other":1}`)})
	issues := f.Validate()
	if len(issues) != 3 {
		t.Fatalf("issues %v", issues)
	}
	if !f.notes.Visible() || !strings.Contains(f.notes.Text, "additional property not allowed: other") {
		t.Errorf("notes %q", f.notes.Text)
	}
	port, _ := f.state.Find("/port")
	if f.rows[port].err.Text != "must be at most 65535" {
		t.Errorf("port error %q", f.rows[port].err.Text)
	}
	w.Resize(fyne.NewSize(520, 640))
	capture(t, w, "/tmp/spyglass-form-errors.png")
}

// TestWideForm builds a form of 500 fields.
func TestWideForm(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := 0; i < 500; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"f` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + `_` + strconv.Itoa(i) + `":{"type":"string","description":"Field."}`)
	}
	b.WriteString(`}}`)
	f, _ := newForm(t, b.String(), nil)
	if len(f.fields.Objects) != 500 {
		t.Fatalf("%d rows", len(f.fields.Objects))
	}
}

// TestRealElicitationForm renders the elicitation request that
// server-everything really sends (captured by core/schemaform's tests) and
// answers it through the controls.
func TestRealElicitationForm(t *testing.T) {
	schema, err := os.ReadFile("../../core/schemaform/testdata/peers/everything-elicitation/trigger-elicitation-request.json")
	if err != nil {
		t.Fatalf("the captured elicitation schema is missing (core/schemaform's peer tests write it): %v", err)
	}
	f, w := newForm(t, string(schema), &Options{Elicitation: true, NoToggle: true})
	if f.notes.Visible() {
		t.Errorf("warning shown for a schema within the restriction: %s", f.notes.Text)
	}
	test.Type(entry(t, ctl(t, f, "/name")), "Ada Lovelace")
	test.Tap(ctl(t, f, "/check").(*esc.Check))
	ctl(t, f, "/titledSingleSelectEnum").(*esc.Select).SetSelectedIndex(3) // "(not set)", Superman, Green Lantern, Wonder Woman
	fish := ctl(t, f, "/titledMultipleSelectEnum").(*fyne.Container)
	test.Tap(fish.Objects[2].(*esc.Check)) // Trout
	num := entry(t, ctl(t, f, "/number"))
	num.SetText("")
	test.Type(num, "2.5e2")
	want := `{"name":"Ada Lovelace","check":true,"firstLine":"It was a dark and stormy night.","integer":42,"number":2.5e2,` +
		`"untitledSingleSelectEnum":"Monica","untitledMultipleSelectEnum":["Guitar"],"titledSingleSelectEnum":"hero-3",` +
		`"titledMultipleSelectEnum":["fish-1","fish-3"],"legacyTitledEnum":"pet-1"}`
	if got := values(t, f); got != want {
		t.Errorf("sent\n%s\nwant\n%s", got, want)
	}
	if issues := f.Validate(); len(issues) != 0 {
		t.Errorf("issues %v", issues)
	}
	w.Resize(fyne.NewSize(560, 1500))
	capture(t, w, "/tmp/spyglass-elicitation.png")
}

// TestIntegerTypoRefused checks that a typo in an integer field is said
// and refused, not turned into another number (12.5x is not 125).
func TestIntegerTypoRefused(t *testing.T) {
	f, _ := newForm(t, `{"type":"object","properties":{"n":{"type":"integer"}}}`, nil)
	n := entry(t, ctl(t, f, "/n"))
	st, _ := f.state.Find("/n")
	for _, tt := range []struct {
		typed, msg string
		code       schemaform.Code
	}{
		{"12.5x", "not a number", schemaform.CodeNotNumber},
		{"12.5", "not an integer", schemaform.CodeNotInteger},
	} {
		n.SetText("")
		test.Type(n, tt.typed)
		if n.Text != tt.typed {
			t.Errorf("the entry holds %q, want what was typed, %q", n.Text, tt.typed)
		}
		if r := f.rows[st]; !r.err.Visible() || r.err.Text != tt.msg {
			t.Errorf("%s: error %q visible %v, want %q", tt.typed, r.err.Text, r.err.Visible(), tt.msg)
		}
		if issues := f.Validate(); len(issues) != 1 || issues[0].Code != tt.code {
			t.Errorf("%s: Validate: %v", tt.typed, issues)
		}
	}
}

// TestEnterSubmits checks OnSubmit from a single-line field.
func TestEnterSubmits(t *testing.T) {
	f, _ := newForm(t, `{"type":"object","properties":{"n":{"type":"integer"}}}`, nil)
	submitted := 0
	f.OnSubmit = func() { submitted++ }
	n := entry(t, ctl(t, f, "/n"))
	test.Type(n, "7")
	n.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if submitted != 1 || values(t, f) != `{"n":7}` {
		t.Errorf("submitted %d times, values %s", submitted, values(t, f))
	}
}

// TestSelectByTapping opens a select's menu and taps an option, as a user
// does: the title is shown, the value is sent.
func TestSelectByTapping(t *testing.T) {
	f, w := newForm(t, `{"type":"object","properties":{"size":{"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"l","title":"Large"}]}},"required":["size"]}`, nil)
	sel := ctl(t, f, "/size").(*esc.Select)
	test.Tap(sel)
	menu, ok := find[*widget.PopUpMenu](w.Canvas().Overlays().Top())
	if !ok || len(menu.Items) != 2 {
		t.Fatalf("no menu with two options: %T", w.Canvas().Overlays().Top())
	}
	test.Tap(menu.Items[1].(fyne.Tappable))
	if sel.Selected != "Large" || values(t, f) != `{"size":"l"}` {
		t.Errorf("shows %q, sends %s", sel.Selected, values(t, f))
	}
}

// setJSONMode switches f to the JSON editor (true) or the form (false) as
// the toggle does, returning the error that keeps an invalid JSON text in
// the editor.
func setJSONMode(f *Form, on bool) error {
	if on == f.jsonMode {
		return nil
	}
	return f.setMode(on)
}

// TestFieldLinesAreSnug: a field's description and the line kept for its
// error sit under the control without a label's padding of their own, so
// a field is its name, its control and two caption lines (each padded
// caption line made it 16 px taller: a form showed two fields at
// 1024×700), and the error, once shown, draws inside the field's box.
func TestFieldLinesAreSnug(t *testing.T) {
	f, _ := newForm(t, `{"type":"object","properties":{"count":{"type":"integer","description":"How many to make"}}}`, nil)
	st, ok := f.state.Find("/count")
	if !ok {
		t.Fatal("no field count")
	}
	r := f.rows[st]
	name := widget.NewLabel("count")
	name.TextStyle = fyne.TextStyle{Bold: true}
	line := fyne.MeasureText("How many", theme.CaptionTextSize(), fyne.TextStyle{}).Height
	pad := theme.Padding()
	want := name.MinSize().Height + widget.NewEntry().MinSize().Height + 2*line + 3*pad
	before := r.box.MinSize().Height
	if before > want+1 {
		t.Errorf("the field is %v tall, want at most %v: its name, control and two caption lines", before, want)
	}
	entry(t, ctl(t, f, "/count")).SetText("12.5x")
	if r.err.Text == "" {
		t.Fatal("no error for 12.5x in an integer field")
	}
	if got := r.box.MinSize().Height; got != before {
		t.Errorf("with its error the field is %v tall, was %v: the fields below it moved", got, before)
	}
}
