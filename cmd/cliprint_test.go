package cmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/internal/tracetest"
)

// TestWriteJSONMatchesEncodingJSON: the streamed printer writes exactly
// what json.Indent (and json.Compact) would.
func TestWriteJSONMatchesEncodingJSON(t *testing.T) {
	inputs := []string{
		`{}`, `[]`, `"x"`, `12.50e3`, `null`, ` {"a" : 1 } `, "\n[ 1 ,\t2 ]\n",
		`{"a":{},"b":[],"c":[{}],"d":[[[]]]}`,
		`{"s":"a \"quoted\" {[,:]} \\ and \u00e9 \\\" end","n":-0.0,"t":true,"f":false,"z":null}`,
		`{"tools":[{"name":"big","description":"xxx","inputSchema":{"type":"object","properties":{"m":{"type":"string"}}}}],"nextCursor":"c"}`,
		`["\\\\","\\\"", "é", " spaced  string ", "\\"]`,
		`{"result":{"content":[{"type":"text","text":"hi"}],"isError":false}}`,
	}
	for _, in := range inputs {
		for _, indent := range []string{"  ", ""} {
			var want bytes.Buffer
			var err error
			if indent == "" {
				err = json.Compact(&want, []byte(in))
			} else {
				err = json.Indent(&want, []byte(in), "", indent)
			}
			if err != nil {
				t.Fatalf("%s: %v", in, err)
			}
			var got bytes.Buffer
			w := bufio.NewWriter(&got)
			writeJSON(w, []byte(in), indent)
			w.Flush()
			if got.String() != want.String() {
				t.Errorf("writeJSON(%q, %q) =\n%s\nwant\n%s", in, indent, got.String(), want.String())
			}
		}
	}
}

// TestWriteJSONNoCopy: printing a large result allocates nothing, where
// json.Indent into a buffer made one or two copies of it (#11.6).
func TestWriteJSONNoCopy(t *testing.T) {
	raw := []byte(`{"tools":[{"name":"big","description":"` + strings.Repeat("x", 4<<20) + `"}]}`)
	w := bufio.NewWriterSize(io.Discard, 64<<10)
	for _, indent := range []string{"  ", ""} {
		if n := testing.AllocsPerRun(3, func() { writeJSON(w, raw, indent) }); n != 0 {
			t.Errorf("writeJSON with indent %q: %v allocations per run, want 0", indent, n)
		}
	}
}

// TestPrintResultStreams: printResult writes the result as the server
// sent it (pretty or compact) and allocates only its output buffer, not
// a copy of the result.
func TestPrintResultStreams(t *testing.T) {
	raw := json.RawMessage(`{"a":[1,{"b":"` + strings.Repeat("y", 1<<20) + `"}]}`)
	for _, format := range []string{"", "json"} {
		var out bytes.Buffer
		r := &cliRun{inv: &Invocation{Format: format}, stdout: &out}
		if code := r.printResult(raw); code != exitOK {
			t.Fatalf("format %q: exit %d", format, code)
		}
		var want bytes.Buffer
		if format == "json" {
			want.WriteString(`{"result":`)
			json.Compact(&want, raw)
			want.WriteString("}\n")
		} else {
			json.Indent(&want, raw, "", "  ")
			want.WriteString("\n")
		}
		if out.String() != want.String() {
			t.Errorf("format %q: printed %.200q, want %.200q", format, out.String(), want.String())
		}
		r.stdout = io.Discard
		// One bufio buffer of 64 KiB, far less than the 1 MB result.
		if n := allocBytes(func() { r.printResult(raw) }); n > 128<<10 {
			t.Errorf("format %q: printResult allocated %d bytes for a %d-byte result, want at most 128 KiB", format, n, len(raw))
		}
	}
}

// allocBytes is how many bytes f allocates (MemStats.TotalAlloc).
func allocBytes(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestWriteTraceStreams: --trace streams the record to the file: what it
// allocates does not grow with the messages (it built the whole trace in
// a buffer, up to twice the record, #11.6).
func TestWriteTraceStreams(t *testing.T) {
	log := events.New(nil)
	for range 3 {
		log.Append(events.Event{Kind: events.KindMessage, Dir: events.DirIn,
			Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("x", 4<<20) + `"}}`)})
	}
	path := filepath.Join(t.TempDir(), "trace.json")
	var stderr bytes.Buffer
	r := &cliRun{inv: &Invocation{Trace: path}, stderr: &stderr, log: log}
	ok := false
	if n := allocBytes(func() { ok = r.writeTrace() }); n > 1<<20 {
		t.Errorf("writing a trace of 12 MB of messages allocated %d bytes, want at most 1 MiB", n)
	}
	if !ok {
		t.Fatalf("writeTrace failed: %s", stderr.String())
	}
	if _, evs := tracetest.Read(t, path); len(evs) != 3 {
		t.Errorf("the trace holds %d events, want 3", len(evs))
	}
}
