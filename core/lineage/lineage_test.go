package lineage

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

func TestFingerprint(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}}}`)
	base := Fingerprint("srv", "write", schema, json.RawMessage(`{"a":"x","b":1}`))
	for _, tc := range []struct {
		name   string
		conn   string
		tool   string
		schema string
		args   string
		same   bool
	}{
		{"key order", "srv", "write", `{"properties":{"b":{"type":"integer"},"a":{"type":"string"}},"type":"object"}`, `{"b":1,"a":"x"}`, true},
		{"white space", "srv", "write", string(schema), " {\n \"a\" : \"x\", \"b\": 1 }\n", true},
		{"other value", "srv", "write", string(schema), `{"a":"y","b":1}`, false},
		{"number text", "srv", "write", string(schema), `{"a":"x","b":1.0}`, false},
		{"nested order", "srv", "write", string(schema), `{"a":"x","b":1,"c":{"y":1,"x":[2,{"q":1,"p":2}]}}`, false},
		{"changed schema", "srv", "write", `{"type":"object","properties":{"a":{"type":"string","maxLength":3}}}`, `{"a":"x","b":1}`, false},
		{"other tool", "srv", "write2", string(schema), `{"a":"x","b":1}`, false},
		{"other server", "srv2", "write", string(schema), `{"a":"x","b":1}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Fingerprint(tc.conn, tc.tool, json.RawMessage(tc.schema), json.RawMessage(tc.args))
			if (got == base) != tc.same {
				t.Errorf("same fingerprint = %v, want %v", got == base, tc.same)
			}
		})
	}
	a := Fingerprint("s", "t", nil, json.RawMessage(`{"c":{"y":1,"x":[2,{"q":1,"p":2}]}}`))
	b := Fingerprint("s", "t", nil, json.RawMessage(`{"c":{"x":[2,{"p":2,"q":1}],"y":1}}`))
	if a != b {
		t.Error("nested key order changed the fingerprint")
	}
	for _, empty := range []string{"", "null", "{}", " { } "} {
		if Fingerprint("s", "t", nil, json.RawMessage(empty)) != Fingerprint("s", "t", nil, nil) {
			t.Errorf("arguments %q differ from none", empty)
		}
	}
	// Field boundaries are kept: ("ab","c") is not ("a","bc").
	if Fingerprint("ab", "c", nil, nil) == Fingerprint("a", "bc", nil, nil) {
		t.Error("server and tool run together")
	}
}

func TestOutcomeUnknown(t *testing.T) {
	write, ro, idem := Hints{}, Hints{ReadOnly: true}, Hints{Idempotent: true}
	for _, tc := range []struct {
		h     Hints
		class ErrorClass
		sent  bool
		want  bool
	}{
		{write, ClassTimeout, true, true},
		{write, ClassCancelled, true, true},
		{write, ClassTransport, true, true},
		{write, ClassTransport, false, false}, // never sent: cannot have run
		{write, ClassProtocol, true, false},
		{write, ClassTool, true, false},
		{write, ClassDeclined, false, false},
		{write, ClassInput, false, false},
		{write, ClassNone, true, false},
		{ro, ClassTimeout, true, false},
		{ro, ClassTransport, true, false},
		{idem, ClassTimeout, true, true},
		{idem, ClassTransport, true, true},
		{Hints{ReadOnly: true, Idempotent: true}, ClassTimeout, true, false},
	} {
		if got := OutcomeUnknown(tc.h, tc.class, tc.sent); got != tc.want {
			t.Errorf("OutcomeUnknown(%+v, %q, sent=%v) = %v", tc.h, tc.class, tc.sent, got)
		}
	}
}

// step is one attempt in a scenario: its class when it ends (ClassNone:
// success; "running": it does not end before the next begins).
type step struct {
	class ErrorClass
	sent  bool
}

const running ErrorClass = "running"

func TestTrackerScenarios(t *testing.T) {
	write, ro, idem := Hints{}, Hints{ReadOnly: true}, Hints{Idempotent: true}
	ok := step{ClassNone, true}
	timeout := step{ClassTimeout, true}
	transport := step{ClassTransport, true}
	unsent := step{ClassTransport, false}
	protocol := step{ClassProtocol, true}
	tool := step{ClassTool, true}
	run := step{running, true}
	type want struct {
		label   string
		unknown bool
		same    bool
		twice   bool
	}
	for _, tc := range []struct {
		name  string
		h     Hints
		steps []step
		want  []want
	}{
		{"write: transport then ok", write, []step{transport, ok},
			[]want{{"", true, false, false}, {"attempt 2", false, false, true}}},
		{"write: timeout, timeout, ok", write, []step{timeout, timeout, ok},
			[]want{{"", true, false, false}, {"attempt 2", true, false, false}, {"attempt 3", false, false, true}}},
		{"write: ok then ok (same call again)", write, []step{ok, ok},
			[]want{{"", false, false, false}, {"attempt 2", false, true, false}}},
		{"write: repeat while running", write, []step{run, ok},
			[]want{{"", false, false, false}, {"attempt 2", false, true, false}}},
		{"write: protocol error then ok (clear error: no warning)", write, []step{protocol, ok},
			[]want{{"", false, false, false}, {"attempt 2", false, false, false}}},
		{"write: tool error then ok", write, []step{tool, ok},
			[]want{{"", false, false, false}, {"attempt 2", false, false, false}}},
		{"write: never sent then ok", write, []step{unsent, ok},
			[]want{{"", false, false, false}, {"attempt 2", false, false, false}}},
		{"write: unknown, ok, ok", write, []step{transport, ok, ok},
			[]want{{"", true, false, false}, {"attempt 2", false, false, true}, {"attempt 3", false, true, true}}},
		{"read-only: never flagged", ro, []step{timeout, ok, ok, transport},
			[]want{{"", false, false, false}, {"attempt 2", false, false, false}, {"attempt 3", false, false, false}, {"attempt 4", false, false, false}}},
		{"idempotent: timeout unknown, retry not flagged", idem, []step{timeout, ok, ok},
			[]want{{"", true, false, false}, {"attempt 2 (idempotent)", false, false, false}, {"attempt 3 (idempotent)", false, false, false}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := NewTracker(nil)
			var got []Attempt
			for i, s := range tc.steps {
				a := tr.Begin("fp", fmt.Sprint("c", i), "srv", "tool", tc.h, "")
				if s.class != running {
					a, _ = tr.End(a.CallID, Result{Class: s.class, Sent: s.sent})
				}
				got = append(got, a)
			}
			if len(got) > 0 && got[0].Lineage == "" {
				t.Fatal("no lineage id")
			}
			for i, w := range tc.want {
				a := got[i]
				if a.Lineage != got[0].Lineage || a.N != i+1 {
					t.Errorf("attempt %d: lineage %s #%d", i+1, a.Lineage, a.N)
				}
				if a.Label() != w.label || a.OutcomeUnknown != w.unknown || a.SameCallAgain != w.same || a.MayHaveRunTwice != w.twice {
					t.Errorf("attempt %d: label %q unknown %v same %v twice %v; want %+v", i+1, a.Label(), a.OutcomeUnknown, a.SameCallAgain, a.MayHaveRunTwice, w)
				}
			}
			if all := tr.Attempts(got[0].Lineage); len(all) != len(tc.steps) {
				t.Errorf("Attempts: %d, want %d", len(all), len(tc.steps))
			}
		})
	}
}

func TestTrackerLineages(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tr := NewTracker(&Options{Window: time.Minute, MaxLineages: 2, Now: func() time.Time { return now }})
	a := tr.Begin("x", "1", "s", "t", Hints{}, "")
	b := tr.Begin("y", "2", "s", "t", Hints{}, "")
	if a.Lineage == b.Lineage {
		t.Fatal("different fingerprints share a lineage")
	}
	tr.End("1", Result{Sent: true})
	if _, ok := tr.End("1", Result{Sent: true}); ok {
		t.Error("an attempt ended twice")
	}
	now = now.Add(2 * time.Minute)
	c := tr.Begin("x", "3", "s", "t", Hints{}, "")
	if c.Lineage == a.Lineage || c.N != 1 || c.SameCallAgain {
		t.Errorf("after the window: %+v", c)
	}
	// MaxLineages 2: the first lineage is forgotten.
	if tr.Attempts(a.Lineage) != nil {
		t.Error("the oldest lineage was kept")
	}
	// A running attempt keeps its lineage open past the window.
	now = now.Add(2 * time.Minute)
	if d := tr.Begin("y", "4", "s", "t", Hints{}, ""); d.Lineage != b.Lineage || d.N != 2 || !d.SameCallAgain {
		t.Errorf("repeat of a running call: %+v", d)
	}
	if id, ok := tr.Lineage("4"); !ok || id != b.Lineage {
		t.Errorf("Lineage(4) = %q %v", id, ok)
	}
}

// TestTrackerLongLineage repeats one write many times: numbering and
// judgement count every attempt while only the recent ones are kept, and
// each attempt costs the same (no scan of the history).
func TestTrackerLongLineage(t *testing.T) {
	tr := NewTracker(nil)
	const n = 20000
	first := tr.Begin("fp", "c0", "srv", "tool", Hints{}, "")
	tr.End(first.CallID, Result{Class: ClassTransport, Sent: true}) // outcome unknown, long ago
	var last Attempt
	for i := 1; i < n; i++ {
		a := tr.Begin("fp", fmt.Sprint("c", i), "srv", "tool", Hints{}, "")
		last, _ = tr.End(a.CallID, Result{Class: ClassNone, Sent: true})
	}
	if last.N != n || !last.MayHaveRunTwice || !last.SameCallAgain {
		t.Errorf("attempt %d: twice %v same %v; want #%d flagged both ways", last.N, last.MayHaveRunTwice, last.SameCallAgain, n)
	}
	kept := tr.Attempts(last.Lineage)
	if len(kept) != MaxKeptAttempts || kept[len(kept)-1].N != n {
		t.Errorf("kept %d attempts ending at #%d; want the last %d", len(kept), kept[len(kept)-1].N, MaxKeptAttempts)
	}
	// A running attempt is never forgotten, however many finish after it.
	run := tr.Begin("fp2", "r0", "srv", "tool", Hints{}, "")
	for i := 0; i < 2*MaxKeptAttempts; i++ {
		a := tr.Begin("fp2", fmt.Sprint("r", i+1), "srv", "tool", Hints{}, "")
		tr.End(a.CallID, Result{Class: ClassNone, Sent: true})
	}
	if a, ok := tr.End(run.CallID, Result{Class: ClassNone, Sent: true}); !ok || a.N != 1 {
		t.Errorf("the long-running first attempt was forgotten: %+v %v", a, ok)
	}
}

// TestNormalize: keys sorted at every depth, white space gone, numbers
// keep their text; what is not one JSON value comes back as it was.
func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		` { "b": 1.0, "a": [1e2, {"z": null, "y": "<x>"}] } `: `{"a":[1e2,{"y":"\u003cx\u003e","z":null}],"b":1.0}`,
		`[1, 2] [3]`: `[1, 2] [3]`,
		`{"a":`:      `{"a":`,
		`  `:         ``,
	} {
		if got := string(Normalize(json.RawMessage(in))); got != want {
			t.Errorf("Normalize(%s) = %s, want %s", in, got, want)
		}
	}
}
