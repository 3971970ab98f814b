package requests

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

const dbSchema = `{
  "type": "object",
  "properties": {
    "host": {"type": "string", "title": "Host"},
    "port": {"type": "integer", "title": "Port", "minimum": 1},
    "ssl":  {"type": "boolean", "title": "Use SSL", "default": true}
  },
  "required": ["host", "port"]
}`

func formRequest() ElicitationRequest {
	return ElicitationRequest{Server: "data-processor", ID: "7", Mode: "form",
		Message: "Please provide your database connection details to proceed.", Schema: []byte(dbSchema)}
}

func TestElicitationFormSubmit(t *testing.T) {
	newApp(t)
	p := NewElicitationPanel(formRequest(), &ElicitationOptions{Forms: buildForm})
	var got []ElicitationAnswer
	p.OnAnswer = func(a ElicitationAnswer) { got = append(got, a) }
	win := window(t, scrolled(p.Object()), 640, 720)
	capture(t, win, "elicitation-form")

	shown := texts(p.Object())
	for _, want := range []string{"Elicitation Request (form)", "“Please provide your database connection details to proceed.”",
		"The server “data-processor” is requesting this data.", "[Submit]", "[Decline]", "[Cancel]"} {
		if !strings.Contains(shown, want) {
			t.Errorf("panel does not show %q:\n%s", want, shown)
		}
	}
	if !strings.Contains(shown, "*") {
		t.Errorf("no required marker:\n%s", shown)
	}

	// Submitting the empty form shows the problems and sends nothing.
	test.Tap(button(t, p.Object(), "Submit"))
	if len(got) != 0 {
		t.Fatalf("an invalid form was sent: %+v", got)
	}
	if !strings.Contains(texts(p.Object()), "Fix the 2 problems") {
		t.Errorf("no validation message:\n%s", texts(p.Object()))
	}
	capture(t, win, "elicitation-form-invalid")

	es := entries(p.Form())
	if len(es) < 2 {
		t.Fatalf("want the host and port entries, got %d", len(es))
	}
	test.Type(es[0], "db.example.com")
	test.Type(es[1], "5432")
	test.Tap(button(t, p.Object(), "Submit"))
	if len(got) != 1 || got[0].Action != ActionAccept {
		t.Fatalf("answers = %+v\n%s", got, texts(p.Object()))
	}
	if want := `{"host":"db.example.com","port":5432,"ssl":true}`; compact(t, got[0].Content) != want {
		t.Errorf("content = %s, want %s", got[0].Content, want)
	}
	if !p.Answered() {
		t.Error("panel not answered")
	}
	test.Tap(button(t, p.Object(), "Decline"))
	if len(got) != 1 {
		t.Error("a second answer was sent")
	}
}

func TestElicitationSubmitAnyway(t *testing.T) {
	newApp(t)
	p := NewElicitationPanel(formRequest(), &ElicitationOptions{Forms: buildForm})
	var got []ElicitationAnswer
	p.OnAnswer = func(a ElicitationAnswer) { got = append(got, a) }
	window(t, scrolled(p.Object()), 640, 720)
	test.Type(entries(p.Form())[0], "h")
	test.Tap(button(t, p.Object(), "Submit"))
	if len(got) != 0 {
		t.Fatal("sent before the user chose to send anyway")
	}
	test.Tap(button(t, p.Object(), "Submit anyway"))
	if len(got) != 1 || compact(t, got[0].Content) != `{"host":"h","ssl":true}` {
		t.Fatalf("answers = %+v", got)
	}
}

func TestElicitationDeclineCancel(t *testing.T) {
	for _, tc := range []struct{ button, action string }{{"Decline", ActionDecline}, {"Cancel", ActionCancel}} {
		t.Run(tc.button, func(t *testing.T) {
			newApp(t)
			p := NewElicitationPanel(formRequest(), &ElicitationOptions{Forms: buildForm})
			var got []ElicitationAnswer
			p.OnAnswer = func(a ElicitationAnswer) { got = append(got, a) }
			window(t, scrolled(p.Object()), 640, 720)
			test.Type(entries(p.Form())[0], "secret-host")
			test.Tap(button(t, p.Object(), tc.button))
			if len(got) != 1 || got[0].Action != tc.action || got[0].Content != nil {
				t.Fatalf("answers = %+v", got)
			}
		})
	}
}

func TestElicitationOutsideRestrictionWarns(t *testing.T) {
	newApp(t)
	req := formRequest()
	req.Schema = []byte(`{"type":"object","properties":{"server":{"type":"object","properties":{"host":{"type":"string"}}}}}`)
	p := NewElicitationPanel(req, &ElicitationOptions{Forms: buildForm})
	win := window(t, scrolled(p.Object()), 640, 600)
	capture(t, win, "elicitation-nested")
	shown := strings.ToLower(texts(p.Object()))
	if !strings.Contains(shown, "server") || !strings.Contains(shown, "nested") && !strings.Contains(shown, "restriction") && !strings.Contains(shown, "flat") && !strings.Contains(shown, "primitive") {
		t.Errorf("no warning about the schema:\n%s", shown)
	}
}

func TestElicitationBadSchema(t *testing.T) {
	newApp(t)
	req := formRequest()
	req.Schema = []byte(`{not json`)
	p := NewElicitationPanel(req, &ElicitationOptions{Forms: buildForm})
	var got []ElicitationAnswer
	p.OnAnswer = func(a ElicitationAnswer) { got = append(got, a) }
	window(t, scrolled(p.Object()), 640, 400)
	if !button(t, p.Object(), "Submit").Disabled() {
		t.Error("Submit is enabled without a form")
	}
	if !strings.Contains(texts(p.Object()), "cannot be shown as a form") {
		t.Errorf("no explanation:\n%s", texts(p.Object()))
	}
	test.Tap(button(t, p.Object(), "Decline"))
	if len(got) != 1 || got[0].Action != ActionDecline {
		t.Fatalf("answers = %+v", got)
	}
}

func urlRequest() ElicitationRequest {
	return ElicitationRequest{Server: "github-tools", ID: "12", Mode: "url",
		Message: "Please complete the OAuth authorization in your browser.",
		URL:     "https://auth.example.com/oauth/authorize?client_id=abc&state=xyz", ElicitationID: "abc123-def456"}
}

func TestElicitationURLOpenAndComplete(t *testing.T) {
	newApp(t)
	var opened []string
	clip := test.NewClipboard()
	p := NewElicitationPanel(urlRequest(), &ElicitationOptions{
		Open:      func(u *url.URL, done func(error)) { opened = append(opened, u.String()); done(nil) },
		Clipboard: clip,
	})
	var got []ElicitationAnswer
	p.OnAnswer = func(a ElicitationAnswer) { got = append(got, a) }
	win := window(t, scrolled(p.Object()), 640, 640)
	capture(t, win, "elicitation-url")
	shown := texts(p.Object())
	for _, want := range []string{"Elicitation Request (external URL)", "https://auth.example.com/oauth/authorize?client_id=abc&state=xyz",
		"Verify the domain before proceeding: auth.example.com", "Elicitation ID: abc123-def456", "[Copy ID]", "[Copy URL]", "[Open in Browser]"} {
		if !strings.Contains(shown, want) {
			t.Errorf("panel does not show %q:\n%s", want, shown)
		}
	}
	// The domain is the highlighted segment.
	var host string
	walk(p.Object(), func(o fyne.CanvasObject) {
		if tx, ok := o.(*canvas.Text); ok && tx.Color == theme.Color(theme.ColorNamePrimary) && tx.TextStyle.Monospace {
			host += tx.Text
		}
	})
	if host != "auth.example.com" {
		t.Errorf("highlighted %q, want the domain", host)
	}

	test.Tap(button(t, p.Object(), "Copy URL"))
	if clip.Content() != urlRequest().URL {
		t.Errorf("clipboard = %q", clip.Content())
	}
	if len(got) != 0 {
		t.Fatal("copying answered the request")
	}
	test.Tap(button(t, p.Object(), "Copy ID"))
	if clip.Content() != "abc123-def456" {
		t.Errorf("Copy ID put %q on the clipboard", clip.Content())
	}
	test.Tap(button(t, p.Object(), "Open in Browser"))
	if len(opened) != 1 || opened[0] != urlRequest().URL {
		t.Fatalf("opened = %v", opened)
	}
	if len(got) != 1 || got[0].Action != ActionAccept || got[0].Content != nil {
		t.Fatalf("answers = %+v", got)
	}
	if !p.Waiting() || !strings.Contains(texts(p.Object()), "Waiting for completion…") {
		t.Errorf("not waiting:\n%s", texts(p.Object()))
	}
	capture(t, win, "elicitation-url-waiting")
	p.Complete()
	if p.Waiting() || !strings.Contains(texts(p.Object()), "Completed") {
		t.Errorf("not completed:\n%s", texts(p.Object()))
	}
	dismissed := false
	p.OnDismiss = func() { dismissed = true }
	test.Tap(button(t, p.Object(), "Close"))
	if !dismissed || len(got) != 1 {
		t.Errorf("Close: dismissed=%v answers=%+v", dismissed, got)
	}
}

// TestElicitationURLOpenFails: Open in Browser accepts only once the
// opener says the browser took the URL. Until then the panel says it is
// opening and Open in Browser cannot be pressed twice; a browser that
// did not open leaves the request pending with the reason, Copy URL and
// "I opened it" (beside Copy URL: no button moves under the
// pointer), and Open in Browser can be tried again.
func TestElicitationURLOpenFails(t *testing.T) {
	newApp(t)
	var pending []func(error)
	p := NewElicitationPanel(urlRequest(), &ElicitationOptions{
		Open: func(_ *url.URL, done func(error)) { pending = append(pending, done) },
	})
	var got []ElicitationAnswer
	p.OnAnswer = func(a ElicitationAnswer) { got = append(got, a) }
	window(t, scrolled(p.Object()), 640, 640)
	open := button(t, p.Object(), "Open in Browser")
	before := open.Position()
	test.Tap(open)
	if len(pending) != 1 || len(got) != 0 {
		t.Fatalf("after Open in Browser: %d opens, answers %+v; want 1 and none yet", len(pending), got)
	}
	if !strings.Contains(texts(p.Object()), "Opening the browser…") || !open.Disabled() {
		t.Errorf("while opening: Open in Browser disabled %v, panel:\n%s", open.Disabled(), texts(p.Object()))
	}
	test.Tap(open)
	if len(pending) != 1 {
		t.Errorf("Open in Browser tapped again while opening: %d opens", len(pending))
	}
	pending[0](errors.New("the command xdg-open exited with status 3: no method available for opening the URL"))
	if len(got) != 0 {
		t.Fatalf("accepted although the browser did not open: %+v", got)
	}
	shown := texts(p.Object())
	for _, want := range []string{"The browser did not open. The command xdg-open exited with status 3: no method available for opening the URL. Copy the URL, open it yourself, then choose “I opened it”.", "[Copy URL]", "[I opened it]", "[Decline]"} {
		if !strings.Contains(shown, want) {
			t.Errorf("after the failure the panel does not show %q:\n%s", want, shown)
		}
	}
	if strings.Contains(shown, "Opening the browser…") {
		t.Errorf("still says it is opening:\n%s", shown)
	}
	if open.Disabled() || open.Position() != before {
		t.Errorf("Open in Browser after the failure: disabled %v, moved from %v to %v", open.Disabled(), before, open.Position())
	}
	test.Tap(button(t, p.Object(), "I opened it"))
	if len(got) != 1 || got[0].Action != ActionAccept {
		t.Fatalf("answers = %+v", got)
	}
}

// TestElicitationURLFailureHoldsTheButtons: the reason a browser did not
// open appears above the answer buttons, and the form scrolls by its
// height: Open in Browser stays on screen where it was pressed, with the
// reason in view above it.
func TestElicitationURLFailureHoldsTheButtons(t *testing.T) {
	newApp(t)
	var pending func(error)
	p := NewElicitationPanel(urlRequest(), &ElicitationOptions{
		Open: func(_ *url.URL, done func(error)) { pending = done },
	})
	s := esc.NewVScroll(container.New(&rightInset{w: 12}, p.Object()))
	window(t, s, 420, 360)
	s.ScrollToBottom()
	open := p.openBtn
	// where on screen: from the top of the view
	onScreen := func(o fyne.CanvasObject) float32 {
		esc.Settle(s) // as the next frame lays it out
		return esc.OffsetIn(s, o) - s.Offset.Y
	}
	at := onScreen(open)
	test.Tap(open)
	if got := onScreen(open); got != at {
		t.Errorf("\"Opening the browser…\" moved Open in Browser from %v to %v on screen", at, got)
	}
	pending(errors.New("the command xdg-open exited with status 3"))
	if got := onScreen(open); got != at {
		t.Errorf("the failure moved Open in Browser from %v to %v on screen", at, got)
	}
	var reason fyne.CanvasObject
	walk(p.Object(), func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "The browser did not open.") && l.Visible() {
			reason = l
		}
	})
	if reason == nil {
		t.Fatalf("no reason shown:\n%s", texts(p.Object()))
	}
	if top := onScreen(reason); top < 0 {
		t.Errorf("the reason starts %v above the view", -top)
	}
}

// TestElicitationURLOpenedLate: an answer given while the browser was
// still opening (Decline) stands; the opener's late word changes nothing.
func TestElicitationURLOpenedLate(t *testing.T) {
	newApp(t)
	var pending func(error)
	p := NewElicitationPanel(urlRequest(), &ElicitationOptions{
		Open: func(_ *url.URL, done func(error)) { pending = done },
	})
	var got []ElicitationAnswer
	p.OnAnswer = func(a ElicitationAnswer) { got = append(got, a) }
	window(t, scrolled(p.Object()), 640, 640)
	test.Tap(button(t, p.Object(), "Open in Browser"))
	test.Tap(button(t, p.Object(), "Decline"))
	pending(nil)
	if len(got) != 1 || got[0].Action != ActionDecline {
		t.Fatalf("answers = %+v, want the one Decline", got)
	}
}

func TestElicitationURLRefusesOtherSchemes(t *testing.T) {
	newApp(t)
	req := urlRequest()
	req.URL = "javascript:alert(1)"
	opened := 0
	p := NewElicitationPanel(req, &ElicitationOptions{Open: func(_ *url.URL, done func(error)) { opened++; done(nil) }})
	window(t, scrolled(p.Object()), 640, 640)
	if !button(t, p.Object(), "Open in Browser").Disabled() {
		t.Error("a javascript: URL can be opened")
	}
	test.Tap(button(t, p.Object(), "Open in Browser"))
	if opened != 0 {
		t.Error("opened")
	}
}

func TestElicitationURLCancel(t *testing.T) {
	newApp(t)
	p := NewElicitationPanel(urlRequest(), &ElicitationOptions{Open: func(_ *url.URL, done func(error)) { done(nil) }})
	var got []ElicitationAnswer
	p.OnAnswer = func(a ElicitationAnswer) { got = append(got, a) }
	window(t, scrolled(p.Object()), 640, 640)
	test.Tap(button(t, p.Object(), "Cancel"))
	if len(got) != 1 || got[0].Action != ActionCancel {
		t.Fatalf("answers = %+v", got)
	}
}

// TestElicitationProblemLineHoldsButtons: Submit on a form with a missing
// field puts its "Fix the … problems" line where Cancel, Decline and Submit
// stay put (the new-user walk saw them pushed out of view), and scrolls
// the first bad field into view.
func TestElicitationProblemLineHoldsButtons(t *testing.T) {
	newApp(t)
	p := NewElicitationPanel(formRequest(), &ElicitationOptions{Forms: buildForm})
	p.OnAnswer = func(a ElicitationAnswer) { t.Errorf("an invalid form was answered: %+v", a) }
	s := esc.NewVScroll(p.Object())
	win := window(t, s, 640, 260)
	s.ScrollToBottom()
	d := fyne.CurrentApp().Driver()
	at := func() map[string]fyne.Position {
		m := map[string]fyne.Position{}
		for name, b := range map[string]fyne.CanvasObject{"Cancel": p.cancel, "Decline": p.decline, "Submit": p.submit} {
			m[name] = d.AbsolutePositionForObject(b).Subtract(d.AbsolutePositionForObject(p.Object()))
		}
		return m
	}
	before := at()
	test.Tap(button(t, p.Object(), "Submit"))
	if !strings.Contains(texts(p.Object()), "Fix the 2 problems") {
		t.Fatalf("no problem line:\n%s", texts(p.Object()))
	}
	win.Content().Refresh() // lay out again, as the next frame does
	for name, pos := range at() {
		if pos != before[name] {
			t.Errorf("%s moved from %v to %v when the problem line appeared", name, before[name], pos)
		}
	}
	host := entries(p.Form())[0].(fyne.CanvasObject)
	top := d.AbsolutePositionForObject(host).Y - d.AbsolutePositionForObject(s).Y
	if top < 0 || top+host.Size().Height > s.Size().Height {
		t.Errorf("the first bad field (Host) is at %v in a view of %v: not scrolled into view", top, s.Size().Height)
	}
}
