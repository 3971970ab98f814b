package requests

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

func newQueue(t *testing.T, ps ProfileSet) (*Queue, fyne.Window, *[]int) {
	t.Helper()
	newApp(t)
	var counts []int
	clock := time.Date(2026, 11, 30, 14, 35, 22, 0, time.UTC)
	q := NewQueue(&QueueOptions{
		Profiles:       &fakeStore{set: ps},
		Responder:      fakeResponder{},
		Forms:          buildForm,
		Open:           func(_ *url.URL, done func(error)) { done(nil) },
		Clipboard:      test.NewClipboard(),
		OnCountChanged: func(n int) { counts = append(counts, n) },
		Now:            func() time.Time { return clock },
	})
	win := window(t, q.Object(), 1100, 720)
	q.opts.Window = win
	return q, win, &counts
}

func TestQueueSeveralServers(t *testing.T) {
	q, win, counts := newQueue(t, testProfiles())
	capture(t, win, "queue-empty")
	if !strings.Contains(texts(q.Object()), "No pending requests") {
		t.Errorf("no empty state:\n%s", texts(q.Object()))
	}
	var sAns []SamplingAnswer
	var eAns []ElicitationAnswer
	q.AddSampling(plainSampling(), func(a SamplingAnswer) { sAns = append(sAns, a) })
	q.AddElicitation(formRequest(), func(a ElicitationAnswer) { eAns = append(eAns, a) })
	q.AddElicitation(urlRequest(), func(a ElicitationAnswer) { eAns = append(eAns, a) })
	q.AddSampling(toolSampling(), func(a SamplingAnswer) { sAns = append(sAns, a) })
	if q.Len() != 4 || (*counts)[len(*counts)-1] != 4 {
		t.Fatalf("len %d, counts %v", q.Len(), *counts)
	}
	if !strings.Contains(texts(q.Object()), "4 pending requests") {
		t.Errorf("count not shown:\n%s", texts(q.Object()))
	}
	// The first request is open.
	if q.selected != q.items[0] {
		t.Fatal("first request not shown")
	}
	capture(t, win, "queue-four")

	// Opening the second shows the elicitation form; declining it closes it.
	q.list.Select(1)
	test.Tap(button(t, q.detail, "Decline"))
	if len(eAns) != 1 || eAns[0].Action != ActionDecline || q.Len() != 3 {
		t.Fatalf("answers %+v, len %d", eAns, q.Len())
	}
	if q.selected != q.items[0] {
		t.Errorf("after answering, the oldest pending request is not shown:\n%s", texts(q.detail))
	}
	// The server cancels the tool sampling request.
	if !q.Cancel("weather", "9", "") {
		t.Fatal("cancel found nothing")
	}
	if q.Len() != 2 || len(sAns) != 0 {
		t.Fatalf("len %d, answers %+v", q.Len(), sAns)
	}
	notes := q.Notes()
	if len(notes) != 2 || notes[0] != "14:35:22 sampling #9 from weather: cancelled by the server" || notes[1] != "14:35:22 elicitation #7 from data-processor: decline" {
		t.Errorf("notes = %q", notes)
	}
	if q.Cancel("weather", "9", "") {
		t.Error("cancelled twice")
	}
	// The URL request: open, then the completion notification closes it.
	q.list.Select(1)
	test.Tap(button(t, q.detail, "Open in Browser"))
	if len(eAns) != 2 || eAns[1].Action != ActionAccept || q.Len() != 2 {
		t.Fatalf("answers %+v len %d", eAns, q.Len())
	}
	if q.CompleteElicitation("github-tools", "other-id") {
		t.Error("completed a different elicitation")
	}
	if !q.CompleteElicitation("github-tools", "abc123-def456") || q.Len() != 1 {
		t.Fatalf("complete: len %d", q.Len())
	}
	// The sampling request from "everything" is answered.
	q.list.Select(0)
	test.Tap(button(t, q.detail, "Reject"))
	if len(sAns) != 1 || !sAns[0].Rejected || q.Len() != 0 {
		t.Fatalf("answers %+v", sAns)
	}
	capture(t, win, "queue-closed")
	if got := q.Notes()[0]; got != "14:35:22 sampling #3 from everything: rejected" {
		t.Errorf("note %q", got)
	}
}

func TestQueueAutoRespondProfile(t *testing.T) {
	ps := testProfiles()
	ps.Profiles[0].AutoRespond = true
	q, _, _ := newQueue(t, ps)
	var got []SamplingAnswer
	q.AddSampling(plainSampling(), func(a SamplingAnswer) { got = append(got, a) })
	if len(got) != 1 || !got[0].Auto || q.Len() != 0 {
		t.Fatalf("answers %+v, len %d", got, q.Len())
	}
	if n := q.Notes(); len(n) != 1 || !strings.Contains(n[0], "auto-responded by the profile “Quick Mock”") {
		t.Errorf("notes %q", n)
	}
}

func TestQueueSetProfiles(t *testing.T) {
	q, _, _ := newQueue(t, testProfiles())
	q.AddSampling(plainSampling(), func(SamplingAnswer) {})
	ps := testProfiles()
	ps.Profiles[0].Template = "Changed."
	q.SetProfiles(ps)
	if got := q.items[0].sampling.response.Text; got != "Changed." {
		t.Errorf("open panel kept the old template: %q", got)
	}
}

func TestQueueURLRequiredError(t *testing.T) {
	q, _, _ := newQueue(t, testProfiles())
	var added []string
	q.opts.OnAdded = func(kind, server, id, run string) { added = append(added, kind+"|"+server+"|"+id) }
	reqs, err := ElicitationsFromError([]byte(`{"elicitations":[{"mode":"url","elicitationId":"e-9","url":"https://pay.example.com/checkout","message":"Pay first."}]}`))
	if err != nil || len(reqs) != 1 || reqs[0].URL != "https://pay.example.com/checkout" || reqs[0].ElicitationID != "e-9" {
		t.Fatalf("reqs %+v, err %v", reqs, err)
	}
	q.AddURLRequired("shop", reqs)
	q.AddURLRequired("shop", reqs) // the tool run again before the page is done
	if q.Len() != 1 || len(added) != 1 || added[0] != "elicitation (URL)|shop|e-9" {
		t.Fatalf("len %d, added %q", q.Len(), added)
	}
	shown := texts(q.detail)
	if !strings.Contains(shown, "“Pay first.”") || !strings.Contains(shown, "pay.example.com") {
		t.Errorf("panel:\n%s", shown)
	}
	test.Tap(button(t, q.detail, "Open in Browser"))
	if q.Len() != 1 {
		t.Fatal("closed before completion")
	}
	if !q.CompleteElicitation("shop", "e-9") || q.Len() != 0 {
		t.Fatal("not completed")
	}
	if _, err := ElicitationsFromError([]byte(`"x"`)); err == nil {
		t.Error("bad data accepted")
	}
}

func TestQueueOnAddedRun(t *testing.T) {
	q, _, _ := newQueue(t, testProfiles())
	var runs []string
	q.opts.OnAdded = func(kind, server, id, run string) { runs = append(runs, run) }
	req := plainSampling()
	req.Run = "run-7"
	q.AddSampling(req, func(SamplingAnswer) {})
	if len(runs) != 1 || runs[0] != "run-7" {
		t.Errorf("runs %q", runs)
	}
}

func TestQueueEditProfilesFromPanel(t *testing.T) {
	q, win, _ := newQueue(t, testProfiles())
	q.AddSampling(plainSampling(), func(SamplingAnswer) {})
	test.Tap(button(t, q.detail, "Edit Profiles"))
	top := win.Canvas().Overlays().Top()
	if top == nil || !strings.Contains(texts(top), "Sampling Settings") {
		t.Fatal("no profiles dialog")
	}
	capture(t, win, "queue-profiles-dialog")
	var active *esc.Select
	walk(top, func(o fyne.CanvasObject) {
		if s, ok := o.(*esc.Select); ok && s.Selected == "Quick Mock" && active == nil {
			active = s
		}
	})
	if active == nil {
		t.Fatal("no active profile select")
	}
	active.SetSelected("Tool Caller")
	if q.Profiles().Active != "Tool Caller" {
		t.Errorf("queue profiles: %+v", q.Profiles())
	}
	store := q.opts.Profiles.(*fakeStore)
	if store.saves != 1 || store.set.Active != "Tool Caller" {
		t.Errorf("store: %d saves, %+v", store.saves, store.set)
	}
}

func TestQueueSelectionFollowsRemoval(t *testing.T) {
	q, _, _ := newQueue(t, testProfiles())
	q.AddSampling(plainSampling(), func(SamplingAnswer) {})
	q.AddElicitation(formRequest(), func(ElicitationAnswer) {})
	// a message long enough that the reason lands below the dialog's fold
	req := urlRequest()
	req.Message = strings.Repeat("Please complete the OAuth authorization in your browser, then come back here. ", 12)
	q.AddElicitation(req, func(ElicitationAnswer) {})
	q.list.Select(2)
	shown := q.selected
	q.Cancel("everything", "3", "")
	if q.selected != shown || !strings.Contains(texts(q.detail), "external URL") {
		t.Fatalf("the shown request changed:\n%s", texts(q.detail))
	}
	// The list highlights the same request at its new place.
	q.list.Select(0)
	if q.selected != q.items[0] || q.items[0].id != "7" {
		t.Errorf("items %v", q.items)
	}
}

// TestQueueRounds: input requests of multi round-trip requests say which
// call and round asked, in the list, the panel and the notes; two rounds
// that share an input key stay apart; [Cancel call] abandons a round's
// call (the answer says so) and answering the other still works.
func TestQueueRounds(t *testing.T) {
	q, win, _ := newQueue(t, testProfiles())
	var eAns []ElicitationAnswer
	var sAns []SamplingAnswer
	r1 := formRequest()
	r1.ID, r1.Round = "4/confirm", "Round 1 of tools/call confirm (MRTR)"
	r2 := formRequest()
	r2.ID, r2.Round = "9/confirm", "Round 1 of tools/call confirm (MRTR)"
	s := plainSampling()
	s.ID, s.Round, s.Server = "12/draft", "Round 2 of tools/call plan (MRTR)", "data-processor"
	q.AddElicitation(r1, func(a ElicitationAnswer) { eAns = append(eAns, a) })
	q.AddElicitation(r2, func(a ElicitationAnswer) { eAns = append(eAns, a) })
	q.AddSampling(s, func(a SamplingAnswer) { sAns = append(sAns, a) })
	capture(t, win, "queue-rounds")
	all := texts(q.Object())
	for _, want := range []string{
		"Round 1 of tools/call confirm (MRTR) · 14:35:22 · Please provide",
		"Round 2 of tools/call plan (MRTR) · 14:35:22",
		"from data-processor · Round 1 of tools/call confirm (MRTR)",
		"Round 1 of tools/call confirm (MRTR): the call waits for this answer, then is sent again with it.",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the queue does not show %q:\n%s", want, all)
		}
	}
	// the person cancels the first call
	test.Tap(button(t, q.detail, "Cancel call"))
	if len(eAns) != 1 || !eAns[0].Abandoned || eAns[0].Action != "" || q.Len() != 2 {
		t.Fatalf("answers %+v, len %d", eAns, q.Len())
	}
	if n := q.Notes(); len(n) != 1 || n[0] != "14:35:22 elicitation Round 1 of tools/call confirm (MRTR) from data-processor: call cancelled" {
		t.Errorf("notes %q", n)
	}
	// the other call's round, with the same key, is still there and answers
	if q.selected == nil || q.selected.id != "9/confirm" {
		t.Fatalf("shown next: %+v", q.selected)
	}
	test.Tap(button(t, q.detail, "Decline"))
	if len(eAns) != 2 || eAns[1].Abandoned || eAns[1].Action != ActionDecline {
		t.Fatalf("answers %+v", eAns)
	}
	// a sampling round opened in a dialog is cancelled from there; the
	// dialog closes with it
	if !q.OpenModal("data-processor", "12/draft") {
		t.Fatal("the round did not open in a dialog")
	}
	top := win.Canvas().Overlays().Top()
	if top == nil || !strings.Contains(texts(top), "Round 2 of tools/call plan (MRTR): the call waits") {
		t.Fatalf("the dialog does not name the round")
	}
	test.Tap(button(t, top, "Cancel call"))
	if len(sAns) != 1 || !sAns[0].Abandoned || q.Len() != 0 || win.Canvas().Overlays().Top() != nil {
		t.Fatalf("sampling answers %+v, len %d, dialog %v", sAns, q.Len(), win.Canvas().Overlays().Top())
	}
	if q.CancelCall("data-processor", "12/draft") {
		t.Error("cancelled twice")
	}
}

// TestQueueNewRequestStartsAtTop: the pane shows each request from its
// heading ("Open in a dialog" in view), not scrolled to where the last
// one was left; the wheel over its entries scrolls the pane.
func TestQueueNewRequestStartsAtTop(t *testing.T) {
	q, win, _ := newQueue(t, testProfiles())
	win.Resize(fyne.NewSize(1100, 320))
	q.AddSampling(plainSampling(), func(SamplingAnswer) {})
	q.AddSampling(toolSampling(), func(SamplingAnswer) {})
	first := q.items[0].sampling
	// the wheel over the model entry scrolls the pane
	c := win.Canvas()
	d := fyne.CurrentApp().Driver()
	q.scroll.ScrollToTop()
	q.scroll.Offset = fyne.NewPos(0, d.AbsolutePositionForObject(first.model).Y-d.AbsolutePositionForObject(q.scroll).Y-q.scroll.Size().Height/2)
	q.scroll.Refresh()
	before := q.scroll.Offset.Y
	at := d.AbsolutePositionForObject(first.model).Add(fyne.NewPos(5, first.model.Size().Height/2))
	if at.Y <= 0 || at.Y >= c.Size().Height {
		t.Fatalf("model entry at %v, off the %v canvas", at, c.Size())
	}
	test.Scroll(c, at, 0, 40) // up: the pane is at its end
	if q.scroll.Offset.Y >= before {
		t.Errorf("wheel over the model entry: pane offset %v, was %v; the entry kept the wheel", q.scroll.Offset.Y, before)
	}
	if q.scroll.Offset.Y == 0 {
		t.Fatal("the pane is at its top; the test needs it scrolled")
	}
	test.Tap(button(t, q.detail, "Reject"))
	if q.selected != q.items[0] || q.items[0].id != "9" {
		t.Fatalf("the next request is not shown: %v", q.items)
	}
	if q.scroll.Offset.Y != 0 {
		t.Errorf("the next request opens scrolled to %v; want its top", q.scroll.Offset.Y)
	}
}

// TestInlineRequestOneTitleOneDetails: a request lent to a tool call's
// panel (Inline) shows one title — its panel's own, as seed 000 draws the
// inline view ("Sampling Request", "Elicitation Request (form)"), not
// the modal's "Server Request: …" above it — and one View Details, which
// opens the request in a dialog titled as seed 000's modal; the place
// says the answer is there.
func TestInlineRequestOneTitleOneDetails(t *testing.T) {
	for _, tc := range []struct {
		name, inline, modal string
		add                 func(q *Queue)
	}{
		{"sampling", "Sampling Request", "Sampling Request", func(q *Queue) { q.AddSampling(plainSampling(), func(SamplingAnswer) {}) }},
		{"elicitation", "Elicitation Request (form)", "Server Request: User Input Required", func(q *Queue) { q.AddElicitation(formRequest(), func(ElicitationAnswer) {}) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, win, _ := newQueue(t, testProfiles())
			tc.add(q)
			it := q.items[0]
			obj, ok := q.Inline(it.server, it.id)
			if !ok {
				t.Fatal("the request cannot be lent")
			}
			win.SetContent(obj)
			count := func(o fyne.CanvasObject, text string) int {
				n := 0
				walk(o, func(x fyne.CanvasObject) {
					if b, ok := esc.AsButton(x); ok && b.Text == text {
						n++
					}
				})
				return n
			}
			got := texts(obj)
			if n := strings.Count(got, "Request"); n != 1 || !strings.Contains(got, tc.inline) {
				t.Errorf("the inline place names the request %d times, want once as %q:\n%s", n, tc.inline, got)
			}
			if n := count(obj, "View Details"); n != 1 {
				t.Fatalf("%d View Details in the inline place, want 1:\n%s", n, got)
			}
			test.Tap(button(t, obj, "View Details"))
			top := win.Canvas().Overlays().Top()
			if top == nil || !strings.Contains(texts(top), tc.modal) {
				t.Fatalf("View Details opened no dialog titled %q", tc.modal)
			}
			if !strings.Contains(texts(obj), "Open in a dialog: answer it there.") {
				t.Errorf("the inline place while the dialog is open:\n%s", texts(obj))
			}
		})
	}
}

// TestQueueURLDialogHoldsItsButtons: in the dialog a URL request opens
// in (View Details), the answer buttons sit at the dialog's bottom, so
// "Opening the browser…" and the reason the browser did not open, which
// appear above them, move none of them — the request fit the dialog, so
// it had nothing to scroll by, and Open in Browser moved down under the
// pointer (#12) — and the reason is in view. Closed, the dialog gives the
// buttons back to the panel.
func TestQueueURLDialogHoldsItsButtons(t *testing.T) {
	q, win, _ := newQueue(t, testProfiles())
	var pending func(error)
	q.opts.Open = func(_ *url.URL, done func(error)) { pending = done }
	// a message long enough that the reason lands below the dialog's fold
	req := urlRequest()
	req.Message = strings.Repeat("Please complete the OAuth authorization in your browser, then come back here. ", 12)
	q.AddElicitation(req, func(ElicitationAnswer) {})
	if !q.OpenModal("github-tools", "12") {
		t.Fatal("the URL request did not open in a dialog")
	}
	top := win.Canvas().Overlays().Top()
	var open *esc.Button
	walk(top, func(o fyne.CanvasObject) {
		if b, ok := o.(*esc.Button); ok && b.Text == "Open in Browser" && b.Visible() {
			open = b
		}
	})
	if open == nil {
		t.Fatal("no Open in Browser in the dialog")
	}
	drv := fyne.CurrentApp().Driver()
	at := drv.AbsolutePositionForObject(open)
	test.Tap(open)
	if got := drv.AbsolutePositionForObject(open); got != at {
		t.Errorf("\"Opening the browser…\" moved Open in Browser from %v to %v", at, got)
	}
	pending(errors.New("the command xdg-open exited with status 3: /usr/bin/xdg-open: 882: w3m: not found"))
	if got := drv.AbsolutePositionForObject(open); got != at {
		t.Errorf("the failure moved Open in Browser from %v to %v", at, got)
	}
	var reason *widget.Label
	walk(top, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "The browser did not open.") && l.Visible() {
			reason = l
		}
	})
	if reason == nil {
		t.Fatalf("the dialog does not say why the browser did not open:\n%s", texts(top))
	}
	var scroll *container.Scroll
	walk(top, func(o fyne.CanvasObject) {
		if sc, ok := o.(*container.Scroll); ok && scroll == nil {
			scroll = sc
		}
	})
	if scroll == nil {
		t.Fatal("the dialog has no scroll")
	}
	if scroll.Content.MinSize().Height <= scroll.Size().Height {
		t.Fatalf("the request fits its dialog (%v in %v): the test needs it to scroll", scroll.Content.MinSize().Height, scroll.Size().Height)
	}
	y, h := drv.AbsolutePositionForObject(reason).Y, reason.Size().Height
	view := drv.AbsolutePositionForObject(scroll).Y
	if h <= 0 || y < view || y+h > view+scroll.Size().Height || y+h > at.Y {
		t.Errorf("the reason is at y=%v, %v tall; the view shows %v–%v above the buttons at %v: not in view", y, h, view, view+scroll.Size().Height, at.Y)
	}
	pressEsc(win.Canvas())
	it := q.find("github-tools", "12")
	if it == nil || it.modal != nil {
		t.Fatal("Esc did not close the dialog, or the request left the queue")
	}
	if !strings.Contains(texts(it.elicit.Object()), "[Open in Browser]") {
		t.Errorf("the panel did not get its buttons back:\n%s", texts(it.elicit.Object()))
	}
}

// TestQueueFormDialogKeepsItsButtons: a form request in a dialog keeps
// its buttons in the panel, above its problem line and Submit anyway,
// which appear below Submit where the pointer is; only a URL request's
// dialog takes its buttons to its bottom.
func TestQueueFormDialogKeepsItsButtons(t *testing.T) {
	q, _, _ := newQueue(t, testProfiles())
	req := formRequest()
	q.AddElicitation(req, func(ElicitationAnswer) {})
	if !q.OpenModal(req.Server, req.ID) {
		t.Fatal("the form request did not open in a dialog")
	}
	it := q.find(req.Server, req.ID)
	if it == nil || len(it.elicit.answersAt.Objects) != 1 {
		t.Fatal("the form request's dialog took its buttons out of the panel")
	}
}
