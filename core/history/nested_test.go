package history

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A call's nested requests survive a restart (a new store on the same
// folder), bounded and with their secrets masked; a file written before
// they were kept still reads.
func TestNestedKeptBoundedMasked(t *testing.T) {
	dir := t.TempDir()
	known := func(raw json.RawMessage) json.RawMessage { // a redactor's known value
		return json.RawMessage(strings.ReplaceAll(string(raw), "tok-123", "••••"))
	}
	s := New(dir, &Options{Mask: known})
	long := strings.Repeat("é", 500)
	var many []Nested
	for i := range MaxNested + 5 {
		many = append(many, Nested{After: time.Duration(i) * time.Millisecond, Method: "roots/list", Status: "ok"})
	}
	uses := make([]string, MaxToolUses+3)
	for i := range uses {
		uses[i] = "get_weather(Paris)"
	}
	call := Entry{Time: time.Unix(10, 0).UTC(), Method: "tools/call", Status: "ok", Nested: []Nested{
		{After: 12 * time.Millisecond, Method: "sampling/createMessage", WithTools: true, Status: "ok · 3ms",
			Summary: "toolUse – get_weather(Paris), get_weather(London)", ToolUses: []string{"get_weather(Paris)", "get_weather(London)"},
			AnsweredAfter: 15 * time.Millisecond},
		{After: 20 * time.Millisecond, Method: "sampling/createMessage", Continuation: true, Status: "ok",
			Summary: `"see https://x.example/cb?access_token=abc123 and tok-123"`, ToolUses: uses},
		{After: 30 * time.Millisecond, Method: "elicitation/create", Status: "ok", Summary: long},
	}}
	if err := s.Add("demo", call); err != nil {
		t.Fatal(err)
	}
	if err := s.Add("demo", Entry{Time: time.Unix(11, 0).UTC(), Method: "tools/call", Status: "ok", Nested: many}); err != nil {
		t.Fatal(err)
	}
	got, err := New(dir, nil).List("demo")
	if err != nil || len(got) != 2 {
		t.Fatalf("List: %v, %d entries", err, len(got))
	}
	if n := len(got[0].Nested); n != MaxNested {
		t.Errorf("a call with %d nested requests kept %d, want %d", MaxNested+5, n, MaxNested)
	}
	ns := got[1].Nested
	if len(ns) != 3 {
		t.Fatalf("nested %+v", ns)
	}
	if first := ns[0]; first.After != 12*time.Millisecond || !first.WithTools || first.Method != "sampling/createMessage" ||
		first.Summary != call.Nested[0].Summary || first.AnsweredAfter != 15*time.Millisecond || len(first.ToolUses) != 2 {
		t.Errorf("first nested request came back as %+v", first)
	}
	if !ns[1].Continuation || len(ns[1].ToolUses) != MaxToolUses {
		t.Errorf("second: continuation %v, %d tool uses (want %d)", ns[1].Continuation, len(ns[1].ToolUses), MaxToolUses)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "demo.json"))
	for _, secret := range []string{"abc123", "tok-123"} {
		if strings.Contains(string(b), secret) {
			t.Errorf("the file holds the secret %q:\n%s", secret, b)
		}
	}
	if r := []rune(ns[2].Summary); len(r) != MaxWords || r[len(r)-1] != '…' {
		t.Errorf("a 500-character summary kept %d characters", len(r))
	}

	// a file of before the nested requests were kept
	old := `{"server": "old", "entries": [{"time": "2026-11-01T10:00:00Z", "method": "tools/call", "status": "ok", "durationNs": 5000000}]}`
	if err := os.WriteFile(filepath.Join(dir, "old.json"), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	if es, err := s.List("old"); err != nil || len(es) != 1 || es[0].Nested != nil || es[0].Duration != 5*time.Millisecond {
		t.Fatalf("the old file read as %+v, %v", es, err)
	}
}
