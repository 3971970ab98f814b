package session

import (
	"encoding/json"
)

// effectiveCaps are the capabilities actually advertised.
type effectiveCaps struct {
	roots, sampling, samplingTools, samplingContext bool
	elicitForm, elicitURL, tasks                    bool
	raw                                             json.RawMessage
}

// DefaultCapabilities are what a session with no Options.Capabilities
// advertises: everything Spyglass can answer — roots, sampling (with
// tools), elicitation in form and url mode, and tasks (task-augmented
// sampling and elicitation, tasks/list, tasks/cancel). Each still needs
// its handler (see [Options.Capabilities]). server-everything, for one,
// lists its trigger-sampling-request-async and
// trigger-elicitation-request-async tools only to a client that declares
// tasks.
func DefaultCapabilities() *Capabilities {
	return &Capabilities{
		Roots: true, Sampling: true, SamplingTools: true,
		ElicitationForm: true, ElicitationURL: true, Tasks: true,
	}
}

// computeCaps intersects what the user switched on with what has a
// handler, and renders the capabilities object.
func computeCaps(o *Options) effectiveCaps {
	want := o.Capabilities
	if want == nil {
		want = DefaultCapabilities()
	}
	h := o.Handlers
	var c effectiveCaps
	c.roots = want.Roots && (h.Roots != nil || o.Roots != nil)
	c.sampling = want.Sampling && h.Sampling != nil
	c.samplingTools = c.sampling && want.SamplingTools
	c.samplingContext = c.sampling && want.SamplingContext
	c.elicitForm = want.ElicitationForm && h.Elicitation != nil
	c.elicitURL = want.ElicitationURL && h.Elicitation != nil
	c.tasks = want.Tasks && (c.sampling || c.elicitForm || c.elicitURL)

	type empty struct{}
	m := map[string]any{}
	if c.roots {
		m["roots"] = map[string]bool{"listChanged": true}
	}
	if c.sampling {
		s := map[string]empty{}
		if c.samplingTools {
			s["tools"] = empty{}
		}
		if c.samplingContext {
			s["context"] = empty{}
		}
		m["sampling"] = s
	}
	if c.elicitForm || c.elicitURL {
		e := map[string]empty{}
		if c.elicitForm {
			e["form"] = empty{}
		}
		if c.elicitURL {
			e["url"] = empty{}
		}
		m["elicitation"] = e
	}
	if c.tasks {
		req := map[string]any{}
		if c.sampling {
			req["sampling"] = map[string]empty{"createMessage": {}}
		}
		if c.elicitForm || c.elicitURL {
			req["elicitation"] = map[string]empty{"create": {}}
		}
		m["tasks"] = map[string]any{"list": empty{}, "cancel": empty{}, "requests": req}
	}
	if len(want.Experimental) > 0 {
		m["experimental"] = want.Experimental
	}
	c.raw, _ = json.Marshal(m)
	return c
}
