package requests

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
	"github.com/spyglass-mcp/spyglass/ui/fit"
	"github.com/spyglass-mcp/spyglass/ui/form"
	"github.com/spyglass-mcp/spyglass/ui/ident"
	"github.com/spyglass-mcp/spyglass/ui/plain"
)

// ElicitationOptions configure an ElicitationPanel.
type ElicitationOptions struct {
	// Forms builds the form of a form-mode request (required for form
	// mode; without it only Decline and Cancel are offered).
	Forms FormBuilder
	// Open opens the URL of a URL-mode request; without it [Open in
	// Browser] is disabled and the user copies the URL.
	Open Opener
	// Clipboard receives [Copy URL] and [Copy ID]; the app's clipboard
	// when nil.
	Clipboard fyne.Clipboard
}

// ElicitationPanel shows one elicitation/create request. In form mode it
// shows the generated form with the server's message, the security warning
// naming the server and Cancel / Decline / Submit; Submit validates first.
// In URL mode it shows the URL with its domain highlighted, the
// verification warning, [Copy URL] and [Open in Browser]; after the user
// accepts it waits, with a spinner, until Complete is called for
// notifications/elicitation/complete. It answers once, through OnAnswer.
type ElicitationPanel struct {
	// OnAnswer gets the user's answer (once).
	OnAnswer func(ElicitationAnswer)
	// OnDismiss is called by [Close] on a URL-mode panel that already
	// accepted (waiting for, or after, completion).
	OnDismiss func()

	req  ElicitationRequest
	opts ElicitationOptions
	done bool

	form      *form.Form
	formErr   error
	errLbl    *widget.Label
	noteLbl   *widget.Label
	submit    *esc.Button
	anyway    *esc.Button
	decline   *esc.Button
	cancel    *esc.Button
	openBtn   *esc.Button
	copyBtn   *esc.Button
	copyID    *esc.Button
	acceptBtn *esc.Button
	waiting   *fyne.Container
	spinner   *widget.Activity
	statusLbl *widget.Label
	completed bool
	// opening: Open in Browser was chosen and the opener has not said
	// yet whether the browser took the URL
	opening bool
	openLbl *widget.Label // "Opening the browser…" meanwhile
	obj     fyne.CanvasObject
	// answers is the row of the answer buttons (Cancel, Decline, Submit
	// or Open in Browser); answersAt holds it in the panel, unless it is
	// lent (LendAnswers)
	answers   *fyne.Container
	answersAt *fyne.Container
	// details holds View Details at the header's right while the panel
	// is lent to a tool call's panel (SetViewDetails)
	details *fyne.Container
}

// NewElicitationPanel returns the panel of req.
func NewElicitationPanel(req ElicitationRequest, opts *ElicitationOptions) *ElicitationPanel {
	p := &ElicitationPanel{req: req}
	if opts != nil {
		p.opts = *opts
	}
	p.obj = p.buildUI()
	return p
}

// Object returns the panel's view.
func (p *ElicitationPanel) Object() fyne.CanvasObject { return p.obj }

// Answers returns the row of the panel's answer buttons (Cancel, Decline
// and Submit, or Open in Browser), for a caller that keeps it in view.
func (p *ElicitationPanel) Answers() fyne.CanvasObject { return p.answers }

// LendAnswers takes the row of answer buttons out of the panel and
// returns it, for a dialog that keeps it at its bottom, outside the
// scroll that holds the panel: there a line that appears above the row
// (why the browser did not open) moves no button, where a panel that fit
// its dialog had nothing to scroll by (esc.Steady) and its row moved
// down under the pointer. ReturnAnswers puts it back.
func (p *ElicitationPanel) LendAnswers() fyne.CanvasObject {
	p.answersAt.Objects = nil
	p.answersAt.Refresh()
	return p.answers
}

// ReturnAnswers puts the row LendAnswers took back in the panel.
func (p *ElicitationPanel) ReturnAnswers() {
	p.answersAt.Objects = []fyne.CanvasObject{p.answers}
	p.answersAt.Refresh()
}

// Request returns the request shown.
func (p *ElicitationPanel) Request() ElicitationRequest { return p.req }

// Form returns the generated form (nil in URL mode or when it could not be
// built).
func (p *ElicitationPanel) Form() *form.Form { return p.form }

// Answered reports whether the panel has answered or been closed.
func (p *ElicitationPanel) Answered() bool { return p.done }

// isURL reports whether the request is in URL mode.
func (p *ElicitationPanel) isURL() bool { return p.req.Mode == "url" }

// Title names the kind of request, as the window's dialog title.
func (p *ElicitationPanel) Title() string {
	if p.isURL() {
		return "Server Request: External Action Required"
	}
	return "Server Request: User Input Required"
}

// SetViewDetails puts View Details, which calls open, at the right of the
// panel's header; nil takes it away. The queue sets it while the panel is
// answered in a tool call's panel, where a dialog gives it more room.
func (p *ElicitationPanel) SetViewDetails(open func()) {
	if open == nil {
		p.details.Objects = nil
	} else {
		b := esc.NewButtonWithIcon("View Details", theme.ZoomInIcon(), open)
		b.Importance = widget.LowImportance
		p.details.Objects = []fyne.CanvasObject{b}
	}
	p.details.Refresh()
}

func (p *ElicitationPanel) buildUI() fyne.CanvasObject {
	kind := "form"
	if p.isURL() {
		kind = "external URL"
	}
	p.details = container.NewStack()
	top := requestHeader("Elicitation Request ("+kind+")", p.req.Server, p.req.ID, p.req.Round, p.details)
	msg := p.req.Message
	if strings.TrimSpace(msg) == "" {
		msg = "(the server sent no message)"
	} else {
		msg = "“" + msg + "”"
	}
	p.errLbl = errorLine()
	p.noteLbl = mutedLabel("")
	p.noteLbl.Hide()
	p.decline = esc.NewButton("Decline", p.onDecline)
	p.cancel = esc.NewButton("Cancel", p.onCancel)
	var body fyne.CanvasObject
	if p.isURL() {
		body = p.buildURL()
	} else {
		body = p.buildForm()
	}
	return box("primary", container.NewVBox(top, wrapLabel(msg), widget.NewSeparator(), body))
}

// buildForm builds the form mode body.
func (p *ElicitationPanel) buildForm() fyne.CanvasObject {
	p.submit = esc.NewButtonWithIcon("Submit", theme.ConfirmIcon(), p.onSubmit)
	p.submit.Importance = widget.HighImportance
	p.anyway = esc.NewButton("Submit anyway", p.onSubmitAnyway)
	p.anyway.Importance = widget.WarningImportance
	p.anyway.Hide()
	warn, _ := warning(fmt.Sprintf("Only provide information you trust this server with. The server “%s” is requesting this data.", p.req.Server))
	p.answers = container.NewHBox(layout.NewSpacer(), p.cancel, p.decline, p.submit)
	var fields fyne.CanvasObject
	switch {
	case p.opts.Forms == nil:
		p.formErr = fmt.Errorf("no form builder")
	default:
		p.form, p.formErr = p.opts.Forms(p.req.Schema)
	}
	if p.formErr != nil || p.form == nil {
		p.submit.Disable()
		reason := "no form"
		if p.formErr != nil {
			reason = p.formErr.Error()
		}
		fields = errText("The requested schema cannot be shown as a form (" + reason + "). Decline or cancel the request.")
	} else {
		p.form.OnChanged = func() {
			if p.anyway.Visible() {
				p.anyway.Hide()
				setError(p.errLbl, "")
			}
		}
		p.form.OnSubmit = p.onSubmit
		fields = p.form
	}
	// The problem line and Submit anyway come below the buttons, so they
	// appear without moving Cancel, Decline or Submit from under the pointer.
	problems := container.NewBorder(nil, nil, nil, container.NewVBox(p.anyway), p.errLbl)
	p.answersAt = container.NewStack(p.answers)
	return container.NewVBox(fields, warn, p.noteLbl, p.answersAt, problems)
}

// buildURL builds the URL mode body.
func (p *ElicitationPanel) buildURL() fyne.CanvasObject {
	u, err := url.Parse(p.req.URL)
	host := ""
	if err == nil {
		host = u.Hostname()
	}
	// in monospace, its host in the primary colour (not bold: bold
	// monospace is missing from some themes), broken only after a
	// separator (a URL broken inside a word read "spyglass-d", "emo/")
	link := ident.New(p.req.URL)
	link.Plain, link.Monospace = true, true
	link.SetStrong(host)
	p.copyBtn = esc.NewButtonWithIcon("Copy URL", theme.ContentCopyIcon(), p.onCopy)
	p.copyBtn.Importance = widget.LowImportance
	p.openBtn = esc.NewButtonWithIcon("Open in Browser", theme.ComputerIcon(), p.onOpen)
	p.openBtn.Importance = widget.HighImportance
	p.acceptBtn = esc.NewButton("I opened it", p.onAcceptOpened)
	p.acceptBtn.Hide()
	p.openLbl = mutedLabel("")
	p.openLbl.Hide()
	switch {
	case err != nil || u.Scheme == "" || host == "":
		p.openBtn.Disable()
		setError(p.errLbl, "This is not a URL that can be opened. Decline or cancel the request.")
	case u.Scheme != "https" && u.Scheme != "http":
		p.openBtn.Disable()
		setError(p.errLbl, "The URL's scheme “"+u.Scheme+"” is not http or https; it will not be opened.")
	case p.opts.Open == nil:
		p.openBtn.Disable()
	}
	domain := host
	if domain == "" {
		domain = "(none)"
	}
	warnText := "This will open an external URL. Verify the domain before proceeding: " + domain
	if u != nil && u.Scheme == "http" {
		warnText += " (not encrypted: http)"
	}
	warn, _ := warning(warnText)
	id := p.req.ElicitationID
	if id == "" {
		id = "(none)"
	}
	// a plain label and a Copy button, not a selectable label: Fyne's
	// selectable label takes the focus on Tab and drops every key, Esc
	// included, so the dialog it was in no longer closed on Esc
	idLbl := widget.NewLabel("Elicitation ID: " + id)
	idLbl.Wrapping = fyne.TextWrapWord // read whole, not cut: the ID on a line of its own when narrow, not broken after "Elicitation ID: 74082"
	p.copyID = esc.NewButtonWithIcon("Copy ID", theme.ContentCopyIcon(), p.onCopyID)
	p.copyID.Importance = widget.LowImportance
	if p.req.ElicitationID == "" {
		p.copyID.Hide()
	}
	p.spinner = widget.NewActivity()
	p.statusLbl = widget.NewLabel("Status: Waiting for completion…")
	p.statusLbl.Wrapping = fyne.TextWrapWord
	p.waiting = container.NewBorder(nil, nil, nil, p.spinner, p.statusLbl)
	p.waiting.Hide()
	// "I opened it" comes after Copy URL, and what the opening says
	// above the row keeps the row where it was on screen (Steady): a
	// browser that failed to open moves no button from under the pointer
	p.answers = container.New(fit.NewRowWrap(), p.cancel, p.decline, p.openBtn)
	p.answersAt = container.NewStack(p.answers)
	// Every line wraps and the buttons wrap onto a second row: shown in a
	// running tool's panel, the URL panel asks for no more width than the
	// tool's detail has (its row of buttons made the window wider, #12).
	return container.NewVBox(
		wrapLabel("The server is requesting you visit:"),
		box("", link),
		container.New(fit.NewRowWrap(), p.copyBtn, p.acceptBtn),
		warn,
		container.NewBorder(nil, nil, nil, p.copyID, idLbl),
		p.waiting,
		p.noteLbl,
		p.openLbl,
		p.errLbl,
		p.answersAt,
	)
}

// onSubmit validates the form and accepts with its values.
func (p *ElicitationPanel) onSubmit() {
	if p.done || p.form == nil {
		return
	}
	if issues := p.form.Validate(); len(issues) > 0 {
		word := "problem"
		if len(issues) > 1 {
			word = "problems"
		}
		setError(p.errLbl, fmt.Sprintf("Fix the %d %s marked in the form before submitting (or submit anyway to see what the server does).", len(issues), word))
		p.anyway.Show()
		if f := p.form.FirstProblem(); f != nil {
			esc.Reveal(f)
		}
		return
	}
	p.accept()
}

// onSubmitAnyway accepts with values that did not validate.
func (p *ElicitationPanel) onSubmitAnyway() {
	if p.done || p.form == nil {
		return
	}
	p.accept()
}

func (p *ElicitationPanel) accept() {
	vals, err := p.form.Values()
	if err != nil {
		setError(p.errLbl, "The values cannot be sent: "+err.Error())
		return
	}
	p.answer(ElicitationAnswer{Action: ActionAccept, Content: vals}, "Submitted.")
}

// onDecline declines the request.
func (p *ElicitationPanel) onDecline() {
	if p.done {
		return
	}
	p.answer(ElicitationAnswer{Action: ActionDecline}, "Declined.")
}

// onCancel cancels the request (dismissed without a choice).
func (p *ElicitationPanel) onCancel() {
	if p.done {
		if p.isURL() && p.OnDismiss != nil {
			p.OnDismiss()
		}
		return
	}
	p.answer(ElicitationAnswer{Action: ActionCancel}, "Cancelled.")
}

// onCopy copies the URL; the user may then open it elsewhere and say so.
func (p *ElicitationPanel) onCopy() {
	p.clipboard().SetContent(p.req.URL)
	p.copyBtn.SetText("Copied")
	if !p.done {
		p.acceptBtn.Show()
	}
}

// onCopyID copies the elicitation's ID (the one its
// notifications/elicitation/complete names).
func (p *ElicitationPanel) onCopyID() {
	p.clipboard().SetContent(p.req.ElicitationID)
	p.copyID.SetText("Copied")
}

// clipboard is the injected clipboard, else the app's.
func (p *ElicitationPanel) clipboard() fyne.Clipboard {
	if p.opts.Clipboard != nil {
		return p.opts.Clipboard
	}
	return fyne.CurrentApp().Clipboard()
}

// onOpen asks the injected opener to open the URL and accepts once it
// reports that the browser took it. Until then the request stays
// pending: a browser that could not be opened leaves Copy URL, "I opened
// it", Decline and Cancel to choose from, with the reason in plain words.
func (p *ElicitationPanel) onOpen() {
	if p.done || p.opening || p.opts.Open == nil {
		return
	}
	u, err := url.Parse(p.req.URL)
	if err != nil {
		p.openFailed(err)
		return
	}
	p.opening = true
	p.openBtn.Disable()
	esc.Steady(p.answers, func() {
		setError(p.errLbl, "")
		setError(p.openLbl, "Opening the browser…")
	})
	p.revealAboveAnswers(p.openLbl)
	p.opts.Open(u, func(err error) {
		p.opening = false
		if p.done {
			setError(p.openLbl, "")
			return // answered meanwhile (Decline, Cancel, the server)
		}
		if err != nil {
			p.openFailed(err)
			return
		}
		setError(p.openLbl, "")
		p.acceptURL()
	})
}

// openFailed shows why the browser did not open and what to do instead.
func (p *ElicitationPanel) openFailed(err error) {
	p.openBtn.Enable()
	esc.Steady(p.answers, func() {
		setError(p.openLbl, "")
		setError(p.errLbl, "The browser did not open. "+strings.TrimSuffix(plain.Headline(err), ".")+". Copy the URL, open it yourself, then choose “I opened it”.")
		p.acceptBtn.Show()
	})
	p.revealAboveAnswers(p.errLbl)
}

// revealAboveAnswers scrolls what was just said (o, at the panel's end)
// into view when the answers are lent to a dialog's bottom: they stay
// where they are, the panel scrolls above them. In the panel the answers
// follow it, and esc.Steady has already kept them and it in view.
func (p *ElicitationPanel) revealAboveAnswers(o fyne.CanvasObject) {
	if len(p.answersAt.Objects) == 0 {
		p.obj.Refresh() // lay the panel out: o was hidden, it has no place yet
		esc.Reveal(o)
	}
}

// onAcceptOpened accepts after the user opened the URL themselves.
func (p *ElicitationPanel) onAcceptOpened() {
	if p.done {
		return
	}
	p.acceptURL()
}

// acceptURL answers accept and waits for the completion notification.
func (p *ElicitationPanel) acceptURL() {
	setError(p.errLbl, "")
	if !p.completed {
		p.waiting.Show()
		p.spinner.Start()
	}
	p.answer(ElicitationAnswer{Action: ActionAccept}, "")
	p.decline.Hide()
	p.acceptBtn.Hide()
	p.openBtn.Hide()
	p.cancel.Enable()
	p.cancel.SetText("Close")
}

// Waiting reports whether a URL-mode panel waits for completion.
func (p *ElicitationPanel) Waiting() bool {
	return p.isURL() && p.done && !p.completed && p.waiting.Visible()
}

// Complete marks a URL-mode request as completed (the adapter calls it on
// notifications/elicitation/complete with a matching elicitationId).
func (p *ElicitationPanel) Complete() {
	if !p.isURL() || p.completed {
		return
	}
	p.completed = true
	if p.spinner != nil {
		p.spinner.Stop()
		p.spinner.Hide()
	}
	p.statusLbl.SetText("Status: Completed ✓")
	p.statusLbl.Importance = widget.SuccessImportance
	p.statusLbl.Refresh()
	p.waiting.Show()
}

// Completed reports whether Complete was called.
func (p *ElicitationPanel) Completed() bool { return p.completed }

func (p *ElicitationPanel) answer(a ElicitationAnswer, note string) {
	p.finish(note)
	if p.OnAnswer != nil {
		p.OnAnswer(a)
	}
}

// Close ends the panel without an answer (for example when the server
// cancelled the request), showing note.
func (p *ElicitationPanel) Close(note string) {
	if p.spinner != nil {
		p.spinner.Stop()
	}
	if p.done {
		if note != "" {
			p.noteLbl.SetText(note)
			p.noteLbl.Show()
		}
		return
	}
	p.finish(note)
}

func (p *ElicitationPanel) finish(note string) {
	p.done = true
	for _, b := range []*esc.Button{p.submit, p.anyway, p.decline, p.cancel, p.openBtn, p.acceptBtn} {
		if b != nil {
			b.Disable()
		}
	}
	if p.form != nil {
		p.form.OnSubmit = nil
	}
	if note != "" {
		p.noteLbl.SetText(note)
		p.noteLbl.Show()
	}
}

// ElicitationsFromError reads the URL elicitations of a
// URLElicitationRequiredError's data ({"elicitations": [{"mode": "url",
// "elicitationId", "url", "message"}, ...]}).
func ElicitationsFromError(data json.RawMessage) ([]ElicitationRequest, error) {
	var d struct {
		Elicitations []struct {
			Mode          string `json:"mode"`
			Message       string `json:"message"`
			URL           string `json:"url"`
			ElicitationID string `json:"elicitationId"`
		} `json:"elicitations"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("requests: URL elicitation error data: %w", err)
	}
	out := make([]ElicitationRequest, 0, len(d.Elicitations))
	for _, e := range d.Elicitations {
		out = append(out, ElicitationRequest{Mode: "url", Message: e.Message, URL: e.URL, ElicitationID: e.ElicitationID})
	}
	return out, nil
}
