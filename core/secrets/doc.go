// Package secrets stores Spyglass's secrets: OAuth tokens, client
// credentials and anything else that must never reach the catalog file,
// preferences, the event log, a trace export or a log line.
//
// Store is the small interface the rest of core uses. Keyring keeps the
// secrets in the operating system's keyring (Secret Service on Linux,
// Keychain on macOS, Credential Manager on Windows) through
// github.com/zalando/go-keyring, with a timeout on every call: a locked
// keyring on a desktop waits behind an unlock prompt that nobody may see,
// and such a call returns ErrTimeout instead of hanging. Memory is an
// in-process Store for tests and for a "do not remember" mode.
//
// Keys are namespaced by catalog server name with ForServer, so two
// servers never share a token. Values and keys are never logged, and no
// error returned by this package carries a value.
package secrets
