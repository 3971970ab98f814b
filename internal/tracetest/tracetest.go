// Package tracetest reads trace files in tests and checks them against
// trace.schema.json, the schema core/events embeds (events.TraceSchema),
// with formats and content encodings asserted. The tests of core/events
// and cmd share it.
package tracetest

import (
	"bytes"
	"os"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// Schema compiles trace.schema.json.
func Schema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(events.TraceSchema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	c.AssertContent()
	if err := c.AddResource("trace.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("trace.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Validate returns where the trace b departs from the schema s (nil when
// it does not); b that is not JSON at all fails t.
func Validate(t testing.TB, s *jsonschema.Schema, b []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the trace is not JSON: %v", err)
	}
	return s.Validate(inst)
}

// Read reads the trace file at path and returns its meta and events; it
// fails t unless the file validates against trace.schema.json and reads
// back with events.ReadTrace.
func Read(t testing.TB, path string) (events.TraceMeta, []events.Event) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no trace: %v", err)
	}
	if err := Validate(t, Schema(t), b); err != nil {
		t.Fatalf("the trace %s does not match trace.schema.json: %v", path, err)
	}
	meta, evs, err := events.ReadTrace(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the trace %s does not read back: %v", path, err)
	}
	return meta, evs
}
