package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/internal/demotest"
)

// diffJSON runs --diff --format json and decodes the report.
func diffJSON(t *testing.T, args ...string) (int, diffReport, string) {
	t.Helper()
	code, out, errs := cli(t, append(append([]string{"--diff"}, args...), "--format", "json")...)
	var rep diffReport
	if code == exitSame || code == exitDiffers {
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("--diff --format json printed %q: %v (%s)", out, err, errs)
		}
	}
	return code, rep, errs
}

// requestPaths lists the request change paths of a report.
func requestPaths(rep diffReport) []string {
	var out []string
	for _, p := range rep.Differences {
		for _, c := range p.Request {
			out = append(out, p.Label()+" "+string(c.Op)+" "+c.Path)
		}
	}
	return out
}

// TestSessionsRecordDiffReplay records sessions with --trace against
// real servers over stdio and HTTP, diffs them (same calls → exit 0, a
// changed argument → exactly that path, exit 1) and replays them (exit 0
// against the same server, exit 1 against server-memory).
func TestSessionsRecordDiffReplay(t *testing.T) {
	dir := isolateCLI(t)
	node, everything := peers.Node(t), peers.File(t, peers.Everything)
	memory := []string{"--", node, peers.File(t, peers.Memory)}
	t.Setenv("MEMORY_FILE_PATH", filepath.Join(dir, "memory.json"))
	demoURL := demotest.URL(t, nil)
	everythingURL := peers.EverythingHTTP(t, "streamableHttp") + "/mcp"
	for _, tc := range []struct {
		name   string
		server []string
		tool   string
		arg    string
	}{
		{"everything stdio", []string{"--", node, everything}, "echo", "message"},
		{"everything http", []string{"--server-url", everythingURL}, "echo", "message"},
		{"demo stdio", []string{"--server", "spyglass-demo"}, "echo", "message"},
		{"demo http", []string{"--server-url", demoURL}, "get_weather", "city"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			record := func(file, value string) {
				t.Helper()
				args := append([]string{"--cli", "--method", "tools/call", "--tool-name", tc.tool, "--tool-arg", tc.arg + "=" + value,
					"--trace", filepath.Join(tmp, file)}, tc.server...)
				if code, out, errs := cli(t, args...); code != exitOK {
					t.Fatalf("record %s: exit %d %s %s", file, code, out, errs)
				}
			}
			record("a.json", "Oslo")
			record("b.json", "Oslo")
			record("c.json", "Lima")
			a, b, c := filepath.Join(tmp, "a.json"), filepath.Join(tmp, "b.json"), filepath.Join(tmp, "c.json")

			code, rep, errs := diffJSON(t, a, b)
			if code != exitSame || !rep.Equal || len(rep.Differences) != 0 || rep.Requests < 3 {
				t.Fatalf("same calls: exit %d %+v %s", code, rep, errs)
			}
			code, rep, errs = diffJSON(t, a, c)
			want := "tools/call " + tc.tool + " changed /params/arguments/" + tc.arg
			if got := requestPaths(rep); code != exitDiffers || len(got) != 1 || got[0] != want {
				t.Fatalf("changed argument: exit %d, request changes %q, want [%q] (%s)", code, got, want, errs)
			}
			code, out, _ := cli(t, "--diff", a, c)
			if code != exitDiffers || !strings.Contains(out, `request  changed /params/arguments/`+tc.arg+`: "Oslo" → "Lima"`) {
				t.Errorf("text report: exit %d\n%s", code, out)
			}

			// Replay against the same server: every response matches.
			replayTrace := filepath.Join(tmp, "replay.json")
			code, out, errs = cli(t, append([]string{"--replay", a, "--trace", replayTrace}, tc.server...)...)
			if code != exitSame || !strings.Contains(out, "no differences") {
				t.Fatalf("replay: exit %d\n%s\n%s", code, out, errs)
			}
			// The replay's own trace is a session like the recorded one.
			if code, rep, errs := diffJSON(t, a, replayTrace); code != exitSame {
				t.Errorf("the replay's trace differs from the recorded one: exit %d %+v %s", code, rep.Differences, errs)
			}
			// Against another server, it differs.
			code, out, errs = cli(t, append([]string{"--replay", a}, memory...)...)
			if code != exitDiffers || !strings.Contains(out, "tools/list") {
				t.Errorf("replay against server-memory: exit %d\n%s\n%s", code, out, errs)
			}
		})
	}
}

func TestReplayAsksBeforeWrites(t *testing.T) {
	isolateCLI(t)
	tmp := t.TempDir()
	trace := filepath.Join(tmp, "t.json")
	demoURL := demotest.URL(t, nil)
	if code, out, errs := cli(t, "--cli", "--method", "tools/call", "--tool-name", "clear_notes", "--tool-arg", "x=1",
		"--trace", trace, "--server-url", demoURL); code != exitOK {
		t.Fatalf("record: exit %d %s %s", code, out, errs)
	}
	code, _, errs := cli(t, "--replay", trace, "--server-url", demoURL)
	if code != exitUsage || !strings.Contains(errs, "clear_notes") || !strings.Contains(errs, "--yes") {
		t.Fatalf("without --yes: exit %d %s", code, errs)
	}
	if code, out, errs := cli(t, "--replay", trace, "--server-url", demoURL, "--yes"); code != exitSame {
		t.Fatalf("with --yes: exit %d %s %s", code, out, errs)
	}
	// Cannot connect: exit 3.
	if code, _, errs := cli(t, "--replay", trace, "--server-url", "http://127.0.0.1:1/mcp", "--yes"); code != exitConnect {
		t.Errorf("no server: exit %d %s", code, errs)
	}
}

func TestDiffBadInput(t *testing.T) {
	isolateCLI(t)
	tmp := t.TempDir()
	good := filepath.Join(tmp, "good.json")
	demoURL := demotest.URL(t, nil)
	if code, _, errs := cli(t, "--cli", "--method", "ping", "--trace", good, "--server-url", demoURL); code != exitOK {
		t.Fatalf("record: %s", errs)
	}
	b, _ := os.ReadFile(good)
	cut := filepath.Join(tmp, "cut.json")
	os.WriteFile(cut, b[:len(b)*2/3], 0o600)
	newer := filepath.Join(tmp, "newer.json")
	os.WriteFile(newer, []byte(strings.Replace(string(b), `"formatVersion":1`, `"formatVersion":9`, 1)), 0o600)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--diff", good}, "two trace files"},
		{[]string{"--diff", good, filepath.Join(tmp, "missing.json")}, "cannot read the trace"},
		{[]string{"--diff", good, cut}, "line "},
		{[]string{"--diff", good, newer}, "format version 9, written by a newer Spyglass"},
		{[]string{"--diff", good, good, "--ignore", "result"}, "JSON pointer"},
		{[]string{"--diff", good, good, "--format", "xml"}, "--format"},
		{[]string{"--diff", good, good, "--method", "ping"}, "does not go with --diff"},
	} {
		code, _, errs := cli(t, tc.args...)
		if code != exitBadInput || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: exit %d %q, want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
	// With --format json the error is a JSON object on stdout too.
	code, out, _ := cli(t, "--diff", good, cut, "--format", "json")
	var e struct {
		Error struct{ Message string } `json:"error"`
	}
	if code != exitBadInput || json.Unmarshal([]byte(out), &e) != nil || !strings.Contains(e.Error.Message, "damaged") {
		t.Errorf("--format json error: exit %d %q", code, out)
	}
	if code, _, errs := cli(t, "--diff", good, good, "--ignore", "/result"); code != exitSame {
		t.Errorf("--ignore /result: exit %d %s", code, errs)
	}
}

// The server's own requests are answered as recorded: a sampling answer
// edited in the trace is what the server gets on replay.
func TestReplayAnswersServerRequests(t *testing.T) {
	isolateCLI(t)
	node, everything := peers.Node(t), peers.File(t, peers.Everything)
	server := []string{"--", node, everything}
	tmp := t.TempDir()
	trace := filepath.Join(tmp, "t.json")
	if code, out, errs := cli(t, append([]string{"--cli", "--method", "tools/call", "--tool-name", "trigger-sampling-request",
		"--tool-arg", "prompt=hi", "--sampling", "mock:RECORDED ANSWER", "--trace", trace}, server...)...); code != exitOK {
		t.Fatalf("record: exit %d %s %s", code, out, errs)
	}
	b, _ := os.ReadFile(trace)
	edited := filepath.Join(tmp, "edited.json")
	os.WriteFile(edited, []byte(strings.ReplaceAll(string(b), "RECORDED ANSWER", "EDITED ANSWER")), 0o600)
	replayed := filepath.Join(tmp, "replayed.json")
	code, out, errs := cli(t, append([]string{"--replay", edited, "--yes", "--trace", replayed}, server...)...)
	if code != exitSame {
		t.Fatalf("replay of the edited trace: exit %d\n%s\n%s", code, out, errs)
	}
	nb, _ := os.ReadFile(replayed)
	if !strings.Contains(string(nb), "EDITED ANSWER") || strings.Contains(string(nb), "RECORDED ANSWER") {
		t.Errorf("the replay did not answer sampling from the trace")
	}
	// Against the original trace the edited answer shows as a difference,
	// in the server's request (answered in the other direction) and in
	// the tool's result that quotes it.
	code, rep, _ := diffJSON(t, trace, replayed)
	var got []string
	for _, p := range rep.Differences {
		for _, c := range p.Response {
			got = append(got, p.Label()+" "+c.Path)
		}
	}
	want := []string{"tools/call trigger-sampling-request /result/content/0/text", "sampling/createMessage /result/content/text"}
	if code != exitDiffers || strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("diff with the original: exit %d, %q, want %q", code, got, want)
	}
}

// A replay speaks the protocol version the trace was recorded with.
func TestReplayPinsRecordedProtocol(t *testing.T) {
	isolateCLI(t)
	server := []string{"--", peers.Node(t), peers.File(t, peers.Everything)}
	tmp := t.TempDir()
	trace, again := filepath.Join(tmp, "t.json"), filepath.Join(tmp, "again.json")
	if code, out, errs := cli(t, append([]string{"--cli", "--method", "tools/list", "--protocol-version", "2025-06-18", "--trace", trace}, server...)...); code != exitOK {
		t.Fatalf("record: exit %d %s %s", code, out, errs)
	}
	if code, out, errs := cli(t, append([]string{"--replay", trace, "--trace", again}, server...)...); code != exitSame {
		t.Fatalf("replay: exit %d\n%s\n%s", code, out, errs)
	}
	tr, err := readTraceFile(again)
	if err != nil || len(tr.Meta.Conns) != 1 || tr.Meta.Conns[0].ProtocolVersion != "2025-06-18" {
		t.Fatalf("the replay spoke %+v (%v)", tr.Meta.Conns, err)
	}

	// The modern era (server/discover, capabilities in _meta) against
	// the demo server over HTTP.
	url := demotest.URL(t, nil)
	if code, out, errs := cli(t, "--cli", "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hi",
		"--protocol-era", "modern", "--trace", trace, url); code != exitOK {
		t.Fatalf("record modern: exit %d %s %s", code, out, errs)
	}
	if code, out, errs := cli(t, "--replay", trace, "--trace", again, url); code != exitSame {
		t.Fatalf("replay modern: exit %d\n%s\n%s", code, out, errs)
	}
	if tr, err := readTraceFile(again); err != nil || tr.Meta.Conns[0].ProtocolVersion != "2026-07-28" {
		t.Fatalf("the modern replay spoke %+v (%v)", tr.Meta.Conns, err)
	}
}

// Roots: server-everything asks for them after the handshake; the replay
// answers with the recorded roots before it sends the call that reads
// them, so the result matches.
func TestReplayRoots(t *testing.T) {
	isolateCLI(t)
	server := []string{"--", peers.Node(t), peers.File(t, peers.Everything)}
	tmp := t.TempDir()
	root := filepath.Join(tmp, "project")
	os.Mkdir(root, 0o755)
	trace := filepath.Join(tmp, "t.json")
	if code, out, errs := cli(t, append([]string{"--cli", "--method", "tools/call", "--tool-name", "get-roots-list", "--tool-arg", "x=1",
		"--root", root, "--trace", trace}, server...)...); code != exitOK || !strings.Contains(out, "project") {
		t.Fatalf("record: exit %d %s %s", code, out, errs)
	}
	if code, out, errs := cli(t, append([]string{"--replay", trace}, server...)...); code != exitSame {
		t.Fatalf("replay: exit %d\n%s\n%s", code, out, errs)
	}
}
