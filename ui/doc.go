// Package ui is Spyglass's desktop window, written with Fyne. It talks to
// the engine only through the small interfaces and view structs it
// declares itself (Backend, Conn, EventSource in model.go); cmd/gui.go
// adapts core's catalog, sessions and event log to them, and tests supply
// fakes.
//
// The window (New) has three parts: the server list on the left
// (serverlist.go: one card per catalog server with its connection state,
// retries and inline errors; add, edit, duplicate, remove and import),
// the selected server's screens in the middle (screens.go, tools.go,
// resources.go, prompts.go, tasks.go, info.go: each a small struct with
// buildUI and onXxx handlers), and the inspector on the right
// (inspector.go: the live event list with tabs, search, outcome badges,
// details, "This run" waterfall, counters, pause, clear and trace
// download; a tool call attempt's row carries its retry-lineage label,
// "attempt N", "outcome unknown" or "may have run twice", explained in its
// details), shown and hidden with Ctrl+I (⌘I on macOS).
//
// The server's own requests (sampling, elicitation) wait in ui/requests'
// queue, which the window shows under the screens while requests wait
// (SetRequests, SetRequestCount); each server's Roots screen is ui/requests'
// roots panel, and folders dropped on the window become roots.
//
// Only the UI thread touches widgets: goroutines hand their results over
// with do (fyne.Do), and the event stream arrives in batches. Tool
// arguments and elicitation forms come from ui/form; so do prompt
// arguments and resource template variables (paramform.go: through
// schemaform.StringsSchema, with the server's completion suggestions
// dropped down under the field typed in, and RFC 6570 expansion). The methods in drive.go drive
// the window like a user for the window tests; automate.go adds the ones
// the screenshot script needs, in builds with -tags screenshots only.
// Package ui/desktop is the one place that creates the real app (and the
// GL driver), so this package's tests run headless.
package ui
