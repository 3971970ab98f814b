// Package hartest checks, in tests, that a file is a valid HAR 1.2 file:
// it validates against the HAR 1.2 JSON Schema of har-schema@2.0.0
// (embedded from har-schema/, see its README), formats asserted. The
// tests of core/har and cmd share it.
package hartest

import (
	"bytes"
	"embed"
	"io/fs"
	"path"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed har-schema/*.json
var schemaFiles embed.FS

// Schema compiles the HAR 1.2 schema.
func Schema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	files, _ := fs.Glob(schemaFiles, "har-schema/*.json")
	if len(files) < 10 {
		t.Fatalf("HAR schema files missing: %v", files)
	}
	for _, f := range files {
		b, err := schemaFiles.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.AddResource("https://har.invalid/"+path.Base(f), doc); err != nil {
			t.Fatal(err)
		}
	}
	s, err := c.Compile("https://har.invalid/har.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Validate fails t unless b is a valid HAR 1.2 file.
func Validate(t testing.TB, b []byte) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the HAR file is not JSON: %v", err)
	}
	if err := Schema(t).Validate(inst); err != nil {
		t.Fatalf("not a valid HAR 1.2 file: %v\n%s", err, b)
	}
}
