package schemaform

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
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

// capturedSchemas returns the tool input schemas captured from the real
// servers and the demo (testdata/peers, testdata/demo).
func capturedSchemas(b *testing.B) [][]byte {
	files, _ := filepath.Glob("testdata/peers/*/*.json")
	demo, _ := filepath.Glob("testdata/demo/*.json")
	var out [][]byte
	for _, f := range append(files, demo...) {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, data)
	}
	if len(out) < 50 {
		b.Fatalf("only %d captured schemas", len(out))
	}
	return out
}

// BenchmarkCaptured builds the form of every captured real tool schema
// (about 70, the sizes servers really send) per iteration: json.Unmarshal
// of the same schemas for reference, Build, Build plus the form's first
// value, and whole-document validation of that value.
func BenchmarkCaptured(b *testing.B) {
	schemas := capturedSchemas(b)
	var size int64
	for _, s := range schemas {
		size += int64(len(s))
	}
	b.Run("Unmarshal", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range schemas {
				var v any
				if err := json.Unmarshal(s, &v); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("Build", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range schemas {
				if _, err := Build(s); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("BuildAndState", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range schemas {
				f, err := Build(s)
				if err != nil {
					b.Fatal(err)
				}
				_ = f.NewState().Value()
			}
		}
	})
	b.Run("BuildStateCheck", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range schemas {
				f, err := Build(s)
				if err != nil {
					b.Fatal(err)
				}
				_ = f.Check(f.NewState())
			}
		}
	})
}

// BenchmarkSchemaRatio measures the two targets inside one benchmark, so
// that both sides of each ratio see the same machine load and the same
// garbage collector state. Each iteration alternates, in a rotating order,
// ten json.Unmarshal calls of the 500-property schema, ten builds (and
// ten build-and-state runs) of it, and one json.Unmarshal, one build and
// one build-and-state run of the 5000-property schema: both sizes then
// allocate about as much per iteration. It reports
//
//   - build500/unmarshal500: one Build500 over one Unmarshal500 (target ≤ 3),
//   - build5000/build500: one Build5000 over one Build500 (target ≤ 12),
//   - state5000/state500: the same for Build plus Form.NewState().Value(),
//     the path a form takes,
//   - unmarshal5000/unmarshal500: the same for json.Unmarshal, for
//     reference (how this machine and the garbage collector treat a ten
//     times larger heap),
//
// and the mean time of each case in ns.
//
// It runs twice. gc=default runs with the collector as configured
// (GOGC=100 unless set): a 500-property model (under 1 MB) stays below the
// runtime's 4 MB minimum heap goal, so its collections are rare and
// nearly empty, while a 5000-property one (over 6 MB, all of it live until
// the build ends) pays about one full marking per build, and the pages
// the scavenger returned in between: this part grows faster than the
// work, for any code that allocates what it keeps. gc=rare turns the
// collector's pacing off and collects only when the heap reaches 256 MiB
// (every few iterations, the same for both sizes): what remains is the
// code's own scaling, which is where a quadratic path would show.
//
// gc=app runs with the default collector inside a heap the size of the
// running app's (the window, its fonts, event log and caches keep ~32 MB
// live; a noscan ballast stands in for them): the collector's pacing is
// then proportional to what each build allocates, for both sizes alike,
// as it is where forms are really built.
func BenchmarkSchemaRatio(b *testing.B) {
	b.Run("gc=default", schemaRatio)
	b.Run("gc=app", func(b *testing.B) {
		ballast := make([]byte, 32<<20)
		schemaRatio(b)
		runtime.KeepAlive(ballast)
	})
	b.Run("gc=rare", func(b *testing.B) {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(256 << 20))
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
		schemaRatio(b)
	})
}

// schemaRatio is BenchmarkSchemaRatio under the current collector settings.
func schemaRatio(b *testing.B) {
	b.ReportAllocs()
	small, large := wideSchema(500), wideSchema(5000)
	const reps = 10 // small runs per large run: the same amount of work
	unmarshal := func(schema []byte) {
		var v any
		if err := json.Unmarshal(schema, &v); err != nil {
			b.Fatal(err)
		}
	}
	build := func(schema []byte) {
		if _, err := Build(schema); err != nil {
			b.Fatal(err)
		}
	}
	state := func(schema []byte) {
		f, err := Build(schema)
		if err != nil {
			b.Fatal(err)
		}
		_ = f.NewState().Value()
	}
	type phase struct {
		run    func([]byte)
		schema []byte
		n      int
		total  time.Duration
	}
	phases := []*phase{
		{run: unmarshal, schema: small, n: reps},
		{run: build, schema: small, n: reps},
		{run: build, schema: large, n: 1},
		{run: state, schema: small, n: reps},
		{run: state, schema: large, n: 1},
		{run: unmarshal, schema: large, n: 1},
	}
	iter := 0
	for b.Loop() {
		for k := range phases {
			p := phases[(k+iter)%len(phases)]
			start := time.Now()
			for range p.n {
				p.run(p.schema)
			}
			p.total += time.Since(start)
		}
		iter++
	}
	mean := func(p *phase) float64 { return float64(p.total) / float64(iter*p.n) }
	u500, b500, b5000, s500, s5000 := mean(phases[0]), mean(phases[1]), mean(phases[2]), mean(phases[3]), mean(phases[4])
	b.ReportMetric(b500/u500, "build500/unmarshal500")
	b.ReportMetric(b5000/b500, "build5000/build500")
	b.ReportMetric(s5000/s500, "state5000/state500")
	b.ReportMetric(mean(phases[5])/u500, "unmarshal5000/unmarshal500")
	b.ReportMetric(u500, "unmarshal500-ns")
	b.ReportMetric(b500, "build500-ns")
	b.ReportMetric(b5000, "build5000-ns")
	b.ReportMetric(s500, "state500-ns")
	b.ReportMetric(s5000, "state5000-ns")
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
