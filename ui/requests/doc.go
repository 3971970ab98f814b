// Package requests draws Spyglass's answers to a server's own requests:
// sampling (with testing profiles, and sampling with tools), elicitation (form
// and URL mode), roots, and a queue of the requests still waiting for the user.
//
// It does not import core/ itself (ui/form, which draws the elicitation
// forms, imports core/schemaform): it declares the small view
// structs and interfaces it needs (SamplingRequest, ElicitationRequest, Root,
// Profile, ProfileStore, Responder, FormBuilder, Opener) and cmd adapts the
// core types to them. Every component answers through a callback, so the
// adapter turns the user's choice into the session handler's return value.
//
// Components are small structs with a buildUI method and named onXxx
// handlers, used from the UI goroutine only (cmd/gui_requests.go hands a
// session handler's request over and waits for the answer). The exception
// is RootsPanel.Roots, which returns a copy under a lock for roots/list.
//
// Tests use fyne.io/fyne/v2/test only; set REQUESTS_PNG_DIR to have them
// render every component to a PNG with the software painter.
package requests
