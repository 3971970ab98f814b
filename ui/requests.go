package ui

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/schemaform"
	"github.com/spyglass-mcp/spyglass/ui/form"
)

// ErrDeclined is returned by the Ask methods when the user declined.
var ErrDeclined = errors.New("ui: the user declined")

// SamplingRequest is a server's sampling/createMessage, as the approval
// dialog shows it.
type SamplingRequest struct {
	Server       string
	SystemPrompt string
	Messages     []PromptMessage
	MaxTokens    int
	Raw          json.RawMessage
}

// SamplingAnswer is what the user wrote as the model's reply.
type SamplingAnswer struct {
	Text, Model string
}

// ElicitationRequest is a server's elicitation/create.
type ElicitationRequest struct {
	Server  string
	Mode    string // "form" or "url"
	Message string
	URL     string
	Schema  json.RawMessage
}

// ElicitationAnswer is the user's answer: Action accept, decline or cancel,
// and the form's content when accepted.
type ElicitationAnswer struct {
	Action  string
	Content json.RawMessage
}

// ask shows a dialog built by show on the UI thread and waits for the
// answer it reports, or for ctx (the server cancelled, the connection
// ended). It has no time cap of its own: a person may take minutes.
func ask[T any](ctx context.Context, show func(answer func(T, error)) dialog.Dialog) (T, error) {
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1)
	var d dialog.Dialog
	do(func() {
		d = show(func(v T, err error) {
			select {
			case ch <- result{v, err}:
			default:
			}
		})
	})
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		do(func() {
			if d != nil {
				d.Hide()
			}
		})
		var zero T
		return zero, ctx.Err()
	}
}

// AskSampling shows a server's sampling request and lets the user write
// the reply (human in the loop) or decline. Safe to call from any
// goroutine but the UI thread.
func (w *Window) AskSampling(ctx context.Context, req SamplingRequest) (SamplingAnswer, error) {
	return ask(ctx, func(answer func(SamplingAnswer, error)) dialog.Dialog {
		box := container.NewVBox()
		if req.SystemPrompt != "" {
			box.Add(heading("System prompt"))
			box.Add(wrapLabel(req.SystemPrompt))
		}
		for _, m := range req.Messages {
			box.Add(container.NewHBox(newBadge(m.Role+" · "+m.Content.Type, "primary")))
			box.Add(textView(m.Content.Text, m.Content.MIMEType))
		}
		reply := widget.NewMultiLineEntry()
		reply.SetPlaceHolder("Write the model's reply")
		reply.SetMinRowsVisible(4)
		model := widget.NewEntry()
		model.SetText("spyglass-human")
		raw := rawButton(w, "sampling/createMessage", req.Raw)
		content := container.NewBorder(nil,
			container.NewVBox(heading("Reply"), reply, widget.NewForm(widget.NewFormItem("Model", model)), container.NewHBox(raw)),
			nil, nil, container.NewVScroll(box))
		d := dialog.NewCustomConfirm(req.Server+" asks the model (sampling)", "Send reply", "Decline", content, func(ok bool) {
			if !ok {
				answer(SamplingAnswer{}, ErrDeclined)
				return
			}
			answer(SamplingAnswer{Text: reply.Text, Model: model.Text}, nil)
		}, w.win)
		d.Resize(fyne.NewSize(640, 560))
		d.Show()
		return d
	})
}

// AskElicitation shows a server's elicitation: a form generated from its
// requested schema, or a URL to open. Safe to call from any goroutine but
// the UI thread.
func (w *Window) AskElicitation(ctx context.Context, req ElicitationRequest) (ElicitationAnswer, error) {
	return ask(ctx, func(answer func(ElicitationAnswer, error)) dialog.Dialog {
		msg := wrapLabel(req.Message)
		var body fyne.CanvasObject
		var values func() (json.RawMessage, error)
		if req.Mode == "url" {
			link := widget.NewHyperlink(req.URL, nil)
			if u, err := url.Parse(req.URL); err == nil {
				link.SetURL(u)
			}
			body = container.NewVBox(msg, link, wrapLabel("Open the link, finish there, then accept."))
			values = func() (json.RawMessage, error) { return nil, nil }
		} else {
			model, err := schemaform.Build(req.Schema)
			if err != nil {
				model, _ = schemaform.Build(nil)
			}
			f := form.New(model, &form.Options{Elicitation: true})
			body = container.NewBorder(msg, nil, nil, nil, container.NewVScroll(f))
			values = f.Values
		}
		var d *dialog.CustomDialog
		finish := func(action string) {
			a := ElicitationAnswer{Action: action}
			if action == "accept" {
				v, err := values()
				if err != nil {
					w.toast("error", err.Error())
					return
				}
				a.Content = v
			}
			d.Hide()
			answer(a, nil)
		}
		accept := widget.NewButton("Accept", func() { finish("accept") })
		accept.Importance = widget.HighImportance
		decline := widget.NewButton("Decline", func() { finish("decline") })
		cancel := widget.NewButton("Cancel", func() { finish("cancel") })
		title := req.Server + " asks you"
		if strings.TrimSpace(req.Server) == "" {
			title = "The server asks you"
		}
		d = dialog.NewCustomWithoutButtons(title, container.NewBorder(nil, container.NewHBox(cancel, decline, accept), nil, nil, body), w.win)
		d.Resize(fyne.NewSize(600, 520))
		d.Show()
		return d
	})
}
