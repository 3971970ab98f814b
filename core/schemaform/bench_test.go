package schemaform

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// wideSchema returns an object schema with n properties of mixed kinds,
// each with a title and a description, as generated tool schemas look.
func wideSchema(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	var req []string
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		name := fmt.Sprintf("field_%d", i)
		switch i % 6 {
		case 0:
			fmt.Fprintf(&b, `%q:{"type":"string","title":"Field %d","description":"A text value number %d.","minLength":1,"maxLength":80}`, name, i, i)
			req = append(req, name)
		case 1:
			fmt.Fprintf(&b, `%q:{"type":"integer","title":"Count %d","description":"How many.","minimum":0,"maximum":1000,"default":10}`, name, i)
		case 2:
			fmt.Fprintf(&b, `%q:{"type":"string","description":"One of three.","enum":["alpha","beta","gamma"]}`, name)
		case 3:
			fmt.Fprintf(&b, `%q:{"type":"boolean","description":"A switch.","default":false}`, name)
		case 4:
			fmt.Fprintf(&b, `%q:{"type":"array","description":"A list.","items":{"type":"string"}}`, name)
		case 5:
			fmt.Fprintf(&b, `%q:{"type":"object","description":"Nested.","properties":{"a":{"type":"string"},"b":{"type":"number"}}}`, name)
		}
	}
	b.WriteString(`},"required":[`)
	for i, r := range req {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q", r)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// BenchmarkSchema compares building the field model with a plain
// json.Unmarshal of the same schema, for 500 and 5000 properties. The
// targets: Build500 ≤ 3× Unmarshal500, and Build5000 ≤ 12× Build500.
func BenchmarkSchema(b *testing.B) {
	for _, n := range []int{500, 5000} {
		schema := wideSchema(n)
		b.Run(fmt.Sprintf("Unmarshal%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(schema)))
			b.ReportAllocs()
			for b.Loop() {
				var v any
				if err := json.Unmarshal(schema, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("Build%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(schema)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Build(schema); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("BuildAndState%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(schema)))
			b.ReportAllocs()
			for b.Loop() {
				f, _ := Build(schema)
				_ = f.NewState().Value()
			}
		})
	}
}

// TestBuildWideSchema checks that the benchmark schema builds as expected.
func TestBuildWideSchema(t *testing.T) {
	f, err := Build(wideSchema(500))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Root.Properties) != 500 || f.Root.Properties[5].Kind != KindObject || !f.Root.Properties[0].Required {
		t.Fatalf("unexpected model")
	}
}
