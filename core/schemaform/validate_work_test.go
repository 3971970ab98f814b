package schemaform

import (
	"strings"
	"testing"
)

// TestValidateRefusesWorkThatGrowsWithDepth: a schema that applies itself
// three times to each child passes the compile-time check (one value costs
// little) but would make the library apply 3^22 subschemas to a document
// 22 levels deep. The check must refuse it up front instead of hanging,
// and still check the same schema on a shallow document.
func TestValidateRefusesWorkThatGrowsWithDepth(t *testing.T) {
	schema := `{"$defs":{"n":{"type":"object","properties":{"c":{"$ref":"#"}}}},
		"allOf":[{"$ref":"#/$defs/n"},{"$ref":"#/$defs/n"},{"$ref":"#/$defs/n"}]}`
	s := mustCompileSchema(t, schema)
	deep := strings.Repeat(`{"c":`, 22) + "{}" + strings.Repeat("}", 22)
	got := issueTexts(s.Validate([]byte(deep)))
	if len(got) != 1 || !strings.Contains(got[0], "too costly to check") {
		t.Fatalf("deep document: %q, want one too-costly issue", got)
	}
	if got := issueTexts(s.Validate([]byte(`{"c":{"c":"x"}}`))); len(got) == 0 || !strings.Contains(got[0], "/c/c") {
		t.Fatalf("shallow document: %q, want the /c/c type error", got)
	}
	f, err := Build([]byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	if got := issueTexts(f.Validate([]byte(deep))); len(got) != 1 || !strings.Contains(got[0], "too costly to check") {
		t.Fatalf("Form.Validate, deep document: %q, want one too-costly issue", got)
	}
}
