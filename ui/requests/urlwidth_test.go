package requests

import (
	"net/url"
	"testing"

	"fyne.io/fyne/v2/test"
)

// TestElicitationURLPanelIsNarrow: shown in a running tool's panel at
// 1024×700 the URL panel must ask for no more width than the tool's detail
// has (about 300 px there): its row of buttons asked for more, and the
// window grew wider and the splits moved (#12). Its lines wrap and its
// buttons go onto a second row instead — also while it waits.
func TestElicitationURLPanelIsNarrow(t *testing.T) {
	newApp(t)
	req := urlRequest()
	req.ElicitationID = "2672f4d2-db27-468b-be99-83c52b7711d6"
	p := NewElicitationPanel(req, &ElicitationOptions{Open: func(_ *url.URL, done func(error)) { done(nil) }, Clipboard: test.NewClipboard()})
	const most = 260
	if w := p.Object().MinSize().Width; w > most {
		t.Errorf("the URL panel needs %v px wide, more than %v", w, most)
	}
	test.Tap(button(t, p.Object(), "Open in Browser"))
	if !p.Waiting() {
		t.Fatal("not waiting for completion after Open in Browser")
	}
	if w := p.Object().MinSize().Width; w > most {
		t.Errorf("waiting for completion, the URL panel needs %v px wide, more than %v", w, most)
	}
}
