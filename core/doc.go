// Package core holds everything in Spyglass that is not drawing: the
// catalog, the event log, the wire taps, sessions, schema forms, sampling,
// OAuth, secrets and the demo server. Nothing under core/ imports Fyne;
// TestCoreImportsNoFyne proves it.
package core
