package requests

import (
	"encoding/json"
	"net/url"

	"github.com/spyglass-mcp/spyglass/ui/form"
)

// Provider names of a testing profile.
const (
	ProviderManual = "manual" // a person types each response
	ProviderMock   = "mock"   // answers from templates
)

// Stop reasons of a sampling result (2025-11-25 spelling).
const (
	StopEndTurn      = "endTurn"
	StopToolUse      = "toolUse"
	StopMaxTokens    = "maxTokens"
	StopStopSequence = "stopSequence"
)

// DefaultModel is the model name shown when a profile names none.
const DefaultModel = "mock-model-1.0"

// Elicitation actions.
const (
	ActionAccept  = "accept"
	ActionDecline = "decline"
	ActionCancel  = "cancel"
)

// SamplingRequest is a sampling/createMessage request as the panels show it.
type SamplingRequest struct {
	// Server names the server that asked (the catalog name).
	Server string
	// ID is the request id as JSON text (or the input key of a modern
	// protocol input request); with Server it identifies the request.
	ID string
	// Run is the operation the request belongs to ("" if none), for a
	// caller that shows requests inline with a tool call.
	Run string
	// Params are the request's params exactly as sent.
	Params json.RawMessage
	// Round is set for an input request of a multi round-trip request
	// (MRTR): which call and round asked, such as "Round 1 of tools/call
	// plan (MRTR)". The queue shows it and offers to cancel the call.
	Round string
}

// SamplingAnswer is the user's answer to a sampling request.
type SamplingAnswer struct {
	// Abandoned is true when the user cancelled the whole call a round
	// of a multi round-trip request belongs to (Round requests only).
	Abandoned bool
	// Rejected is true when the user declined the request; the adapter
	// answers with a JSON-RPC error (code -1, user rejected).
	Rejected bool
	// Result is the sampling/createMessage result to send (role, content,
	// model, stopReason); nil when Rejected.
	Result json.RawMessage
	// Profile is the testing profile that was selected.
	Profile string
	// Auto is true when the result came from the profile (Auto-respond)
	// rather than from the edited fields.
	Auto bool
}

// Override is a model-specific template of a profile: the first override
// whose Pattern (a glob such as "claude-*") matches a model hint wins.
type Override struct {
	Pattern  string `json:"pattern"`
	Template string `json:"template"`
}

// Profile is a sampling testing profile (the view of core/sampling.Profile).
type Profile struct {
	Name        string     `json:"name"`
	Provider    string     `json:"provider"`
	AutoRespond bool       `json:"autoRespond,omitempty"`
	Template    string     `json:"template,omitempty"`
	Model       string     `json:"model,omitempty"`
	StopReason  string     `json:"stopReason,omitempty"`
	Overrides   []Override `json:"overrides,omitempty"`
	// CallTools makes a mock answer a request that offers tools with a
	// call of a tool (stopReason toolUse) until tool results come back.
	CallTools bool `json:"callTools,omitempty"`
}

// ProfileSet is the saved set of profiles and which one is active.
type ProfileSet struct {
	Active   string    `json:"active"`
	Profiles []Profile `json:"profiles"`
}

// Current returns the active profile (the first one when Active is unknown,
// a manual profile when there are none).
func (s *ProfileSet) Current() Profile {
	if p, ok := s.Get(s.Active); ok {
		return p
	}
	if len(s.Profiles) > 0 {
		return s.Profiles[0]
	}
	return Profile{Name: "Manual", Provider: ProviderManual}
}

// Get returns the named profile.
func (s *ProfileSet) Get(name string) (Profile, bool) {
	for _, p := range s.Profiles {
		if p.Name == name {
			return p, true
		}
	}
	return Profile{}, false
}

// Names returns the profile names in order.
func (s *ProfileSet) Names() []string {
	out := make([]string, 0, len(s.Profiles))
	for _, p := range s.Profiles {
		out = append(out, p.Name)
	}
	return out
}

// Put adds p, or replaces the profile called old (old may equal p.Name);
// the active name follows a rename.
func (s *ProfileSet) Put(old string, p Profile) {
	for i := range s.Profiles {
		if s.Profiles[i].Name == old {
			s.Profiles[i] = p
			if s.Active == old {
				s.Active = p.Name
			}
			return
		}
	}
	s.Profiles = append(s.Profiles, p)
}

// Delete removes the named profile.
func (s *ProfileSet) Delete(name string) {
	for i := range s.Profiles {
		if s.Profiles[i].Name == name {
			s.Profiles = append(s.Profiles[:i], s.Profiles[i+1:]...)
			if s.Active == name {
				s.Active = ""
			}
			return
		}
	}
}

// clone returns a deep copy.
func (s ProfileSet) clone() ProfileSet {
	out := ProfileSet{Active: s.Active, Profiles: make([]Profile, len(s.Profiles))}
	for i, p := range s.Profiles {
		p.Overrides = append([]Override(nil), p.Overrides...)
		out.Profiles[i] = p
	}
	return out
}

// ProfileStore loads and saves the testing profiles; the adapter implements
// it with core/sampling's Load and Save.
type ProfileStore interface {
	Load() (ProfileSet, error)
	Save(ProfileSet) error
}

// Responder computes what a profile answers; the adapter implements it with
// core/sampling's Profile.Draft and Profile.Respond.
type Responder interface {
	// Draft is the text a profile prefills in the response field.
	Draft(p Profile, params json.RawMessage) string
	// Respond is the whole result a mock profile sends; manual profiles
	// return an error.
	Respond(p Profile, params json.RawMessage) (json.RawMessage, error)
}

// ElicitationRequest is an elicitation/create request as the panel shows it.
type ElicitationRequest struct {
	// Server names the server that asked; ID is the request id (JSON
	// text) or input key; Run the operation it belongs to.
	Server, ID, Run string
	// Mode is "form" (also when empty) or "url".
	Mode string
	// Message is the server's explanation.
	Message string
	// Schema is the requestedSchema exactly as sent (form mode).
	Schema json.RawMessage
	// URL and ElicitationID are set in URL mode.
	URL, ElicitationID string
	// Round is set for an input request of a multi round-trip request
	// (see SamplingRequest.Round).
	Round string
}

// ElicitationAnswer is the user's answer to an elicitation request.
type ElicitationAnswer struct {
	// Abandoned is true when the user cancelled the whole call the
	// round belongs to (Round requests only); Action is then empty.
	Abandoned bool
	// Action is ActionAccept, ActionDecline or ActionCancel.
	Action string
	// Content is the accepted form's values (form mode, accept only).
	Content json.RawMessage
}

// Root is one filesystem root exposed to servers.
type Root struct {
	Name string `json:"name,omitempty"`
	URI  string `json:"uri"`
}

// FormBuilder builds the elicitation form of a requested schema; the
// adapter builds it with core/schemaform.Build and form.New with
// form.Options{Elicitation: true}.
type FormBuilder func(schema json.RawMessage) (*form.Form, error)

// Opener starts opening a URL in the user's browser (honouring $BROWSER)
// and calls done once, on the UI thread, when it knows the outcome:
// nil when the browser took the URL, else why not (the command was not
// found, it failed). It must not block: it is called on the UI thread.
// Tests supply a fake.
type Opener func(u *url.URL, done func(error))
