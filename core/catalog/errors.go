package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// Sentinel errors. Every error returned by this package wraps one of them
// (or an error from the operating system), so callers branch with errors.Is.
var (
	// ErrSyntax: the file is not valid JSON. The error is a *SyntaxError.
	ErrSyntax = errors.New("malformed JSON")
	// ErrShape: the JSON is valid but not a catalog: the document is not an
	// object, or "mcpServers" (or VS Code's "servers") is not an object.
	ErrShape = errors.New("not a server list")
	// ErrUnknownType: an entry's "type" is not stdio, http or sse.
	ErrUnknownType = errors.New("unknown server type")
	// ErrMissingCommand: a stdio entry has no "command".
	ErrMissingCommand = errors.New("stdio server without command")
	// ErrMissingURL: an http or sse entry has no "url".
	ErrMissingURL = errors.New("http/sse server without url")
	// ErrInvalidURL: an http or sse entry's "url" is not an absolute http(s) URL.
	ErrInvalidURL = errors.New("invalid server url")
	// ErrInvalidValue: a field has the wrong JSON type or a value outside its
	// allowed set. EntryError.Field names it and EntryError.Allowed lists the
	// values that would be accepted, when there is such a list.
	ErrInvalidValue = errors.New("invalid value")
	// ErrDuplicateName: the same server name appears twice in one file.
	ErrDuplicateName = errors.New("duplicate server name")
	// ErrInvalidName: an empty server name.
	ErrInvalidName = errors.New("invalid server name")
	// ErrNotFound: no server of that name in the catalog.
	ErrNotFound = errors.New("no such server")
	// ErrNoServers: the catalog has no server at all.
	ErrNoServers = errors.New("no servers")
	// ErrAmbiguous: a server must be chosen (several are listed) and none was named.
	ErrAmbiguous = errors.New("several servers and none selected")
	// ErrExists: a server of that name already exists (Add, Import clashes).
	ErrExists = errors.New("server already exists")
	// ErrReadOnly: the catalog was opened read-only (--config) or is in memory only.
	ErrReadOnly = errors.New("catalog is read-only")
	// ErrConflict: the file changed on disk since it was read; the error is a
	// *ConflictError. Reload (or use Update) and apply the change again.
	ErrConflict = errors.New("file changed since it was read")
	// ErrOverride: a per-run override (-e, --header, --cwd) does not fit the
	// selected server's transport. The error is an *OverrideError.
	ErrOverride = errors.New("override does not apply to this server")
	// ErrNotRegular: a file to read is not a regular file (a FIFO, a
	// device, a folder), so reading it could wait or run forever.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge: a file to read is larger than MaxFileSize.
	ErrTooLarge = errors.New("file too large")
	// ErrSimulatedCrash may be returned by a WriteOptions.Hook to stop a save
	// at one step, as a crash would: nothing is cleaned up.
	ErrSimulatedCrash = errors.New("simulated crash")
)

// SyntaxError reports malformed JSON with its position. Line and Column are
// 1-based; Column counts characters (runes), not bytes.
type SyntaxError struct {
	File   string // path of the file, "" when parsed from memory
	Line   int
	Column int
	Offset int64  // byte offset of the offending character
	Msg    string // what the JSON decoder said
}

// Error returns "file:line:column: malformed JSON: message".
func (e *SyntaxError) Error() string {
	name := e.File
	if name == "" {
		name = "<input>"
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s", name, e.Line, e.Column, ErrSyntax, e.Msg)
}

// Unwrap returns ErrSyntax.
func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// EntryError describes one problem with one server entry (or one field of it).
type EntryError struct {
	File    string   // path of the file, "" when parsed from memory
	Server  string   // entry name; "" for a problem with the document itself
	Field   string   // JSON field path such as "type", "url" or "oauth.scopes"; "" for the whole entry
	Value   string   // the offending value as written (JSON text, shortened), if any
	Allowed []string // accepted values, when the field takes one of a fixed set
	Err     error    // one of the sentinels above
}

// Error describes the problem with its file, server and field.
func (e *EntryError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(": ")
	}
	if e.Server != "" {
		fmt.Fprintf(&b, "server %q: ", e.Server)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, "%s: ", e.Field)
	}
	b.WriteString(e.Err.Error())
	if e.Value != "" {
		fmt.Fprintf(&b, " (%s)", e.Value)
	}
	if len(e.Allowed) > 0 {
		fmt.Fprintf(&b, "; allowed: %s", strings.Join(e.Allowed, ", "))
	}
	return b.String()
}

// Unwrap returns the sentinel.
func (e *EntryError) Unwrap() error { return e.Err }

// InvalidError lists the problems found in an otherwise readable file. Parse
// returns it together with a usable *Catalog: every entry is kept (and written
// back byte for byte), but the entries named here cannot be connected to.
type InvalidError struct {
	File     string
	Problems []*EntryError
}

// Error lists the problems, one per line.
func (e *InvalidError) Error() string {
	if len(e.Problems) == 1 {
		return e.Problems[0].Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d problems", len(e.Problems))
	if e.File != "" {
		fmt.Fprintf(&b, " in %s", e.File)
	}
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		b.WriteString(p.Error())
	}
	return b.String()
}

// Unwrap returns every problem, so errors.Is(err, ErrUnknownType) works.
func (e *InvalidError) Unwrap() []error {
	out := make([]error, len(e.Problems))
	for i, p := range e.Problems {
		out[i] = p
	}
	return out
}

// LinkError says that Path is a symbolic link to Target, which does not
// exist. ReadOnly is set when the file was opened read-only (--config).
type LinkError struct {
	Path, Target string
	ReadOnly     bool
}

// Error names the link and its missing target.
func (e *LinkError) Error() string {
	return fmt.Sprintf("%s: symbolic link to %s, which does not exist", e.Path, e.Target)
}

// Unwrap returns fs.ErrNotExist.
func (e *LinkError) Unwrap() error { return fs.ErrNotExist }

// ConflictError says that Path changed on disk after it was read, so saving
// would have overwritten someone else's change.
type ConflictError struct {
	Path string
}

// Error names the file that changed.
func (e *ConflictError) Error() string {
	return fmt.Sprintf("save %s: %s", e.Path, ErrConflict)
}

// Unwrap returns ErrConflict.
func (e *ConflictError) Unwrap() error { return ErrConflict }

// OverrideError says a per-run override does not fit the selected server,
// e.g. an environment variable for an http server.
type OverrideError struct {
	Server string // selected server
	Type   Type   // its transport
	What   string // "env", "headers" or "cwd"
}

// Error names the server, its transport and the override.
func (e *OverrideError) Error() string {
	return fmt.Sprintf("server %q (%s): %s: %s", e.Server, e.Type, e.What, ErrOverride)
}

// Unwrap returns ErrOverride.
func (e *OverrideError) Unwrap() error { return ErrOverride }

// Warning is a non-fatal finding, e.g. a reserved _meta key whose value has
// the wrong shape (it is dropped from outgoing requests).
type Warning struct {
	Server string // entry name
	Field  string // e.g. "metadata"
	Key    string // e.g. "progressToken"
	Msg    string // what is wrong, in a few words
}

// String formats the warning for a log line or a status bar.
func (w Warning) String() string {
	s := ""
	if w.Server != "" {
		s = fmt.Sprintf("server %q: ", w.Server)
	}
	if w.Field != "" {
		s += w.Field + ": "
	}
	if w.Key != "" {
		s += fmt.Sprintf("%q: ", w.Key)
	}
	return s + w.Msg
}
