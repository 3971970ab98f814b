package ui

import (
	"context"
	"encoding/json"

	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Save to collection… from the inspector, the prompt and resource
// screens and the JSON-RPC tester: each hands the request's event to
// Window.SaveToCollection.

// canSave reports whether the inspector's request req (answered by resp)
// can be saved to a collection: a client→server request with its answer,
// and a backend that keeps collections.
func (in *inspector) canSave(req, resp *EventView) bool {
	if _, ok := in.w.be.(CollectionStore); !ok || req == nil || resp == nil {
		return false
	}
	return req.Dir == "out" && req.Type == "request" && req.Server != ""
}

// onSaveRequest saves the request of the event e (a request, or the
// answer paired with one) to a collection.
func (in *inspector) onSaveRequest(e EventView) {
	seq := e.Seq
	if e.Type != "request" {
		seq = e.Pair
	}
	in.w.SaveToCollection(e.Server, seq)
}

// latestRequest is the newest client→server request of server with
// method whose params satisfy match (nil: any) in the event source; 0
// when it holds none. The source's search narrows it to the server's
// events that name the method (a sealed chunk of another server's is not
// read), looked at newest first; events no longer held are passed over.
// Call it off the UI thread.
func latestRequest(src EventSource, server, method string, match func(params json.RawMessage) bool) uint64 {
	var seqs []uint64
	_, _ = src.Search(context.Background(), EventQuery{Server: server, Text: method}, func(s []uint64) { seqs = append(seqs, s...) })
	for i := len(seqs) - 1; i >= 0; i-- {
		e, ok := src.Get(seqs[i])
		if !ok || e.Server != server || e.Dir != "out" || e.Type != "request" || e.Method != method {
			continue
		}
		var m struct {
			Params json.RawMessage `json:"params"`
		}
		_ = json.Unmarshal(e.Raw, &m)
		if match == nil || match(m.Params) {
			return e.Seq
		}
	}
	return 0
}

// saveLatestButton is a "Save to collection…" button that saves the
// newest request of server with method whose params satisfy the match
// which (called on the UI thread when it is tapped) returns; nil without
// a backend that keeps collections.
func (w *Window) saveLatestButton(server, method string, which func() (func(params json.RawMessage) bool, error)) *widget.Button {
	if _, ok := w.be.(CollectionStore); !ok {
		return nil
	}
	b := widget.NewButtonWithIcon("Save to collection…", theme.DocumentSaveIcon(), func() {
		match, err := which()
		if err != nil {
			w.toast("error", "Could not save the call: "+err.Error())
			return
		}
		src := w.be.Events()
		go func() {
			seq := latestRequest(src, server, method, match)
			do(func() {
				if seq == 0 {
					w.toast("error", "The log holds no "+method+" of "+server+" to save")
					return
				}
				w.SaveToCollection(server, seq)
			})
		}()
	})
	b.Importance = widget.LowImportance
	return b
}

// paramIs matches params whose key holds the string want.
func paramIs(key, want string) func() (func(json.RawMessage) bool, error) {
	return func() (func(json.RawMessage) bool, error) {
		return func(p json.RawMessage) bool {
			var m map[string]json.RawMessage
			var got string
			return json.Unmarshal(p, &m) == nil && json.Unmarshal(m[key], &got) == nil && got == want
		}, nil
	}
}

// newSaveButton is the tester's "Save to collection…": the request last
// answered, once there is one (hidden without a backend that keeps
// collections).
func (t *testerScreen) newSaveButton() *widget.Button {
	b := widget.NewButtonWithIcon("Save to collection…", theme.DocumentSaveIcon(), func() {
		if t.sentSeq != 0 {
			t.ss.s.w.SaveToCollection(t.ss.s.cfg.Name, t.sentSeq)
		}
	})
	b.Importance = widget.LowImportance
	b.Disable()
	if _, ok := t.ss.s.w.be.(CollectionStore); !ok {
		b.Hide()
	}
	return b
}

// onAnswered makes the request of event seq the one Save to collection…
// saves, when it was answered.
func (t *testerScreen) onAnswered(seq uint64, answered bool) {
	if seq == 0 || !answered {
		return
	}
	t.sentSeq = seq
	t.saveResp.Enable()
}
