package events

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// mixedEvent is event i of a session: a request, a progress
// notification, the response (every payload distinct), a stderr line.
func mixedEvent(i int) Event {
	id := strconv.Itoa(i / 4)
	switch i % 4 {
	case 0:
		return Event{Conn: "srv", Kind: KindMessage, Dir: DirOut, Run: "run-" + id,
			Raw: []byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello ` + id + `"}}}`)}
	case 1:
		return Event{Conn: "srv", Kind: KindMessage, Dir: DirIn,
			Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":` + id + `,"progress":50}}`)}
	case 2:
		return Event{Conn: "srv", Kind: KindMessage, Dir: DirIn, Run: "run-" + id,
			Raw: []byte(`{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":"Echo: hello ` + id + `"}]}}`)}
	}
	return Event{Conn: "srv", Kind: KindStderr, Text: "working on " + id}
}

// TestRetentionMillionSpilled: a million events with an 8 MB memory bound
// are all kept — sealed, compressed and spilled to the spill folder — and
// each reads back with its exact bytes and its pairing; the heap stays
// near the bound, and Close leaves the folder empty.
func TestRetentionMillionSpilled(t *testing.T) {
	n, bound := 1_000_000, int64(8<<20)
	if raceEnabled || testing.Short() {
		n, bound = 100_000, 1<<20
	}
	dir := t.TempDir()
	before, _ := heap()
	l := New(&Options{MaxBytes: bound, SpillDir: dir})
	for i := 0; i < n; i++ {
		l.Append(mixedEvent(i))
	}
	grown := int64(0)
	if after, _ := heap(); after > before {
		grown = int64(after - before)
	}
	r := l.Retention()
	if l.Len() != n || l.Stats().Dropped != 0 || r.Spilled == 0 || r.Memory > bound {
		t.Fatalf("%d events held of %d, %d dropped, retention %+v (bound %d)", l.Len(), n, l.Stats().Dropped, r, bound)
	}
	if grown > 2*bound+8<<20 { // the payloads alone are 70 B × n
		t.Errorf("the heap grew by %d MB for a %d MB bound", grown>>20, bound>>20)
	}
	// Every event, through After in pages, with its exact bytes.
	seq := uint64(0)
	for seq < uint64(n) {
		evs, err := l.After(seq, 50_000)
		if err != nil || len(evs) == 0 {
			t.Fatalf("After(%d): %d events, %v", seq, len(evs), err)
		}
		for _, e := range evs {
			want := mixedEvent(int(e.Seq - 1))
			if e.Seq != seq+1 || !bytes.Equal(e.Raw, want.Raw) || e.Text != want.Text || e.Run != want.Run || e.Conn != "srv" {
				t.Fatalf("event %d (after %d) reads back as %q %q %q", e.Seq, seq, e.Raw, e.Text, e.Run)
			}
			if e.Type == MsgResult && (e.Pair != e.Seq-2 || e.Method != "tools/call") {
				t.Fatalf("response %d: pair %d method %q", e.Seq, e.Pair, e.Method)
			}
			if e.Type == MsgRequest && (e.Pair != e.Seq+2 || e.Outcome == nil || e.Outcome.State != OK) {
				t.Fatalf("request %d: pair %d outcome %v", e.Seq, e.Pair, e.Outcome)
			}
			seq = e.Seq
		}
	}
	for _, s := range []uint64{1, 2, 3, 4, uint64(n / 3), uint64(n/2 + 1), uint64(n)} {
		e, ok := l.Get(s)
		if want := mixedEvent(int(s - 1)); !ok || !bytes.Equal(e.Raw, want.Raw) || e.Text != want.Text {
			t.Errorf("Get(%d): %v %q %q", s, ok, e.Raw, e.Text)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("after Close the spill folder holds %v", ents)
	}
	if _, ok := l.Get(1); ok {
		t.Error("a spilled event still reads after Close: it was not in the spill file")
	}
}

// TestSpillFileCleanedOnClear: Clear empties the spill file, Close
// removes it.
func TestSpillFileCleanedOnClear(t *testing.T) {
	dir := t.TempDir()
	l := New(&Options{MaxBytes: 1 << 20, SpillDir: dir})
	for i := 0; i < 100_000; i++ {
		l.Append(mixedEvent(i))
	}
	if r := l.Retention(); r.Spilled == 0 || r.SpillBytes == 0 {
		t.Fatalf("nothing spilled: %+v", r)
	}
	l.Clear()
	if r := l.Retention(); r.Events != 0 || r.SpillBytes != 0 || r.Memory != 0 {
		t.Errorf("after Clear: %+v", r)
	}
	for i := 0; i < 100_000; i++ {
		l.Append(mixedEvent(i))
	}
	if e, ok := l.Get(100_001); !ok || !bytes.Equal(e.Raw, mixedEvent(0).Raw) {
		t.Errorf("the first event after Clear reads back as %v %q", ok, e.Raw)
	}
	l.Close()
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("after Close the spill folder holds %v", ents)
	}
}

// TestSpillUnwritable: when the spill folder cannot be made, the oldest
// events are dropped to stay within the bound, one warning says why, and
// the newest events still read back.
func TestSpillUnwritable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	const bound = 1 << 20
	l := New(&Options{MaxBytes: bound, SpillDir: filepath.Join(file, "spill")})
	const n = 200_000
	for i := 0; i < n; i++ {
		l.Append(mixedEvent(i))
	}
	r := l.Retention()
	st := l.Stats()
	if r.SpillErr == nil || st.Dropped == 0 || r.Memory > bound || r.Spilled != 0 {
		t.Fatalf("retention %+v, stats %+v", r, st)
	}
	if uint64(l.Len())+st.Dropped != st.Events {
		t.Errorf("%d held + %d dropped != %d appended", l.Len(), st.Dropped, st.Events)
	}
	if st.Events != n+1 {
		t.Errorf("%d events appended, want %d and one warning", st.Events, n)
	}
	last, ok := l.Get(l.LastSeq())
	if want := mixedEvent(n - 1); !ok || last.Text != want.Text {
		t.Errorf("newest event: %v %q", ok, last.Text)
	}
}

// TestSpillWarningKept: the warning about an unwritable spill folder is
// appended once, on the connection whose event crossed the bound.
func TestSpillWarningKept(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	l := New(&Options{MaxBytes: 256 << 10, SpillDir: filepath.Join(file, "spill"), Capacity: 5_000_000})
	var warns []Event
	for i := 0; i < 20_000; i++ {
		seq := l.Append(mixedEvent(i))
		if e, ok := l.Get(seq + 1); ok && e.Kind == KindWarning {
			warns = append(warns, e)
		}
	}
	if len(warns) != 1 || warns[0].Conn != "srv" || !strings.Contains(warns[0].Text, "cannot be written") {
		t.Fatalf("warnings %v", warns)
	}
}

// TestPairSealedRequest: a response that arrives after its request was
// sealed still pairs it; readers and listeners see the new outcome.
func TestPairSealedRequest(t *testing.T) {
	l, _ := newTestLog(&Options{SpillDir: t.TempDir(), MaxBytes: 1 << 20})
	var updated []Event
	done := make(chan struct{})
	req := l.Append(request("a", DirOut, `"x"`, "tools/call"))
	cancel := l.Subscribe(func(b Batch) {
		updated = append(updated, b.Updated...)
		for _, e := range b.Events {
			if e.Type == MsgResult && e.ID == `"x"` {
				close(done)
			}
		}
	})
	defer cancel()
	for i := 0; i < 20*hotEvents; i++ {
		l.Append(Event{Conn: "a", Kind: KindStderr, Text: fmt.Sprint("line ", i)})
	}
	if r := l.Retention(); r.Spilled == 0 {
		t.Fatalf("the request was not spilled: %+v", r)
	}
	resp := l.Append(result("a", DirIn, `"x"`))
	<-done
	cancel()
	e := mustGet(t, l, req)
	if e.Pair != resp || e.Outcome == nil || e.Outcome.State != OK {
		t.Errorf("sealed request after its answer: pair %d, outcome %v", e.Pair, e.Outcome)
	}
	if len(updated) != 1 || updated[0].Seq != req || updated[0].Pair != resp {
		t.Errorf("listener's updates: %v", updated)
	}
	evs, _ := l.After(0, 1)
	if len(evs) != 1 || evs[0].Pair != resp {
		t.Errorf("After(0,1): %v", evs)
	}
}

// TestSearchMatchesMatch: Search over sealed, spilled and new events
// finds exactly what Match finds, with the filters of the inspector.
func TestSearchMatchesMatch(t *testing.T) {
	l, _ := newTestLog(&Options{SpillDir: t.TempDir(), MaxBytes: 512 << 10})
	for i := 0; i < 20_000; i++ {
		e := mixedEvent(i)
		if i%7 == 0 {
			e.Conn = "other"
		}
		switch i {
		case 5:
			e = Event{Conn: "srv", Kind: KindHTTP, HTTP: &HTTPInfo{Method: "POST", URL: "http://h/MCP-Path", Status: 502, Err: "Bad Gateway"}}
		case 9:
			e = Event{Conn: "srv", Kind: KindStderr, Text: "Grüße aus KÖLN"}
		case 11:
			e = Event{Conn: "srv", Kind: KindInvalid, Raw: []byte("bin\x00ary\x00 needle")}
		}
		l.Append(e)
	}
	all := l.Events()
	for _, q := range []Query{
		{Text: "HELLO 123"}, {Text: "hello 1234", Conn: "srv"}, {Text: "result #77 · tools/call"},
		{Text: "mcp-path"}, {Text: "bad gateway"}, {Text: "köln"}, {Text: "grüsse"}, {Text: "NEEDLE"},
		{Text: "run-19"}, {Text: "working on 4999", Category: CatLogs}, {Text: "echo: hello 7", Category: CatTools},
		{Text: "zzz not there"}, {Text: "", Conn: "other", After: 15_000}, {Category: CatRPC, After: 19_990},
		{Text: "progress", Conn: "nobody"}, {Text: "\"id\":"},
	} {
		var want []uint64
		for _, e := range all {
			if e.Seq > q.After && (q.Conn == "" || e.Conn == q.Conn) && e.In(q.Category) && Match(e, q.Text) {
				want = append(want, e.Seq)
			}
		}
		var got []uint64
		last, err := l.Search(context.Background(), q, func(s []uint64) { got = append(got, s...) })
		if err != nil || last != l.LastSeq() {
			t.Fatalf("%+v: last %d, %v", q, last, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%+v: Search found %d events (%v…), Match %d (%v…)", q, len(got), head(got), len(want), head(want))
		}
	}
}

func head(s []uint64) []uint64 { return s[:min(len(s), 5)] }

// TestSearchCancel: cancelling the context stops a search at the next
// chunk: found is not called again.
func TestSearchCancel(t *testing.T) {
	l := New(&Options{SpillDir: t.TempDir(), MaxBytes: 1 << 20})
	for i := 0; i < 100_000; i++ {
		l.Append(mixedEvent(i))
	}
	ctx, cancel := context.WithCancel(context.Background())
	calls, hits := 0, 0
	_, err := l.Search(ctx, Query{Text: "hello"}, func(s []uint64) {
		calls++
		hits += len(s)
		cancel()
	})
	if !errors.Is(err, context.Canceled) || calls != 1 || hits == 0 || hits >= 50_000 {
		t.Errorf("cancelled search: %v after %d calls, %d hits of 50000", err, calls, hits)
	}
}

// TestSealRoundTrip: every field of a recorded session's events reads
// back the same once they are sealed (and spilled).
func TestSealRoundTrip(t *testing.T) {
	f, err := os.Open("testdata/everything-session.json")
	if err != nil {
		t.Fatal(err)
	}
	_, mix, err := ReadTrace(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	l := New(&Options{SpillDir: t.TempDir(), MaxBytes: 1 << 20})
	defer l.Close()
	const lag = 200 // a response arrives within this many events
	var want []Event
	for i := 0; i < 40*len(mix); i++ {
		e := mix[i%len(mix)]
		e.Seq, e.Pair, e.Outcome, e.Unpaired, e.Late, e.Time = 0, 0, nil, false, false, time.Time{}
		seq := l.Append(e)
		if seq > lag {
			want = append(want, mustGet(t, l, seq-lag))
		}
	}
	if r := l.Retention(); r.Spilled == 0 {
		t.Fatalf("nothing spilled: %+v", r)
	}
	for _, w := range want {
		got := mustGet(t, l, w.Seq)
		if !got.Time.Equal(w.Time) {
			t.Fatalf("event %d: time %v, want %v", w.Seq, got.Time, w.Time)
		}
		got.Time = w.Time
		if len(got.Raw) == 0 && len(w.Raw) == 0 {
			got.Raw = w.Raw
		}
		if !reflect.DeepEqual(got, w) {
			t.Fatalf("event %d reads back as\n%+v\nwant\n%+v", w.Seq, got, w)
		}
	}
}

// TestWriteTraceOfSpilled: a trace of one connection, written from a log
// whose older events are spilled, holds exactly that connection's events
// with their bytes.
func TestWriteTraceOfSpilled(t *testing.T) {
	l := New(&Options{MaxBytes: 1 << 20, SpillDir: t.TempDir()})
	defer l.Close()
	want := 0
	for i := 0; i < 40_000; i++ {
		e := mixedEvent(i)
		if i%3 == 0 {
			e.Conn = "other"
			want++
		}
		l.Append(e)
	}
	if r := l.Retention(); r.Spilled == 0 {
		t.Fatalf("nothing spilled: %+v", r)
	}
	var buf bytes.Buffer
	if err := l.WriteTraceOf(&buf, TraceMeta{App: "test"}, "other"); err != nil {
		t.Fatal(err)
	}
	_, evs, err := ReadTrace(&buf)
	if err != nil || len(evs) != want {
		t.Fatalf("the trace holds %d events (%v), want %d", len(evs), err, want)
	}
	for _, e := range evs {
		if w := mixedEvent(int(e.Seq - 1)); e.Conn != "other" || !bytes.Equal(e.Raw, w.Raw) || e.Text != w.Text {
			t.Fatalf("event %d in the trace: %s %q %q", e.Seq, e.Conn, e.Raw, e.Text)
		}
	}
}

// TestSpillRemovesStale: a spill file left by a process that has ended
// is removed when the next log opens its own; a live process's stays.
func TestSpillRemovesStale(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal("true(1), for the pid of a process that has ended:", err)
	}
	dead := filepath.Join(dir, fmt.Sprintf("spill-%d-1", cmd.Process.Pid))
	live := filepath.Join(dir, fmt.Sprintf("spill-%d-1", os.Getppid()))
	for _, p := range []string{dead, live} {
		if err := os.WriteFile(p, []byte("old events"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	l := New(&Options{MaxBytes: 1 << 20, SpillDir: dir})
	defer l.Close()
	for i := 0; i < 50_000; i++ {
		l.Append(mixedEvent(i))
	}
	if r := l.Retention(); r.Spilled == 0 {
		t.Fatalf("nothing spilled: %+v", r)
	}
	if _, err := os.Stat(dead); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dead process's spill file is still there: %v", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("a live process's spill file went: %v", err)
	}
}

// TestToolErrorOutcomeSealed: a tools/call the tool answered with isError
// keeps saying so once its request is sealed and spilled (the meta block
// carries it), so the window's badge stays red on a long session.
func TestToolErrorOutcomeSealed(t *testing.T) {
	l, _ := newTestLog(&Options{SpillDir: t.TempDir(), MaxBytes: 1 << 20})
	req := l.Append(request("a", DirOut, "9", "tools/call"))
	l.Append(toolErrResult("a", DirIn, "9"))
	for i := 0; i < 20*hotEvents; i++ {
		l.Append(Event{Conn: "a", Kind: KindStderr, Text: fmt.Sprint("line ", i)})
	}
	if r := l.Retention(); r.Spilled == 0 {
		t.Fatalf("the request was not spilled: %+v", r)
	}
	e := mustGet(t, l, req)
	if e.Outcome == nil || e.Outcome.State != OK || !e.Outcome.ToolError || e.Badge() != "tool error · 0ms" {
		t.Errorf("the spilled request's outcome %+v, badge %q; want OK with the tool's error", e.Outcome, e.Badge())
	}
}

// TestErrorSummaryKept: an error event's words for a person (Summary)
// are kept when its chunk is sealed and spilled and in a trace file, and
// title it: "error · Command not found: …", the chain in Text (#12).
func TestErrorSummaryKept(t *testing.T) {
	l := New(&Options{SpillDir: t.TempDir(), MaxBytes: 1 << 20})
	defer l.Close()
	const chain = `session: start: wire: start no-such: exec: "no-such": executable file not found in $PATH`
	const words = "Command not found: no-such — check the command, or give its full path"
	seq := l.Append(Event{Conn: "srv", Kind: KindError, Text: chain, Summary: words})
	for i := 0; i < 40_000; i++ {
		l.Append(mixedEvent(i))
	}
	if r := l.Retention(); r.Spilled == 0 {
		t.Fatalf("nothing spilled: %+v", r)
	}
	got := mustGet(t, l, seq)
	if got.Summary != words || got.Text != chain || got.Title() != "error · "+words {
		t.Fatalf("sealed, the error event reads summary %q, text %q, title %q", got.Summary, got.Text, got.Title())
	}
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var back Event
	if err := json.Unmarshal(b, &back); err != nil || back.Summary != words {
		t.Fatalf("in a trace it reads back as %q (%v): %s", back.Summary, err, b)
	}
}
