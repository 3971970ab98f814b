package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/mcpresult"
	"github.com/spyglass-mcp/spyglass/ui/esc"
	"github.com/spyglass-mcp/spyglass/ui/ident"
)

// fakeBackend is an in-memory Backend for widget tests.
type fakeBackend struct {
	mu      sync.Mutex
	servers []ServerConfig
	ro      string
	conns   map[string]*fakeConn
	ev      *fakeEvents
	saved   int
}

func newFakeBackend(names ...string) *fakeBackend {
	b := &fakeBackend{conns: map[string]*fakeConn{}, ev: &fakeEvents{}}
	for _, n := range names {
		b.servers = append(b.servers, ServerConfig{Name: n, Transport: "stdio", Command: "server-" + n})
	}
	return b
}

func (b *fakeBackend) Servers() []ServerConfig {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]ServerConfig(nil), b.servers...)
}
func (b *fakeBackend) ReadOnly() (bool, string) { return b.ro != "", b.ro }
func (b *fakeBackend) SaveServer(old string, cfg ServerConfig) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.saved++
	for i, s := range b.servers {
		if old != "" && s.Name == old {
			b.servers[i] = cfg
			return nil
		}
	}
	b.servers = append(b.servers, cfg)
	return nil
}
func (b *fakeBackend) RemoveServer(name string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, s := range b.servers {
		if s.Name == name {
			b.servers = append(b.servers[:i], b.servers[i+1:]...)
			return nil
		}
	}
	return errors.New("no such server")
}
func (b *fakeBackend) Import(data []byte, source string) (added, skipped []string, err error) {
	var doc struct {
		MCPServers map[string]struct {
			Command string `json:"command"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || doc.MCPServers == nil {
		return nil, nil, fmt.Errorf("not a config file")
	}
	for n, s := range doc.MCPServers {
		exists := false
		for _, x := range b.Servers() {
			exists = exists || x.Name == n
		}
		if exists {
			skipped = append(skipped, n)
			continue
		}
		_ = b.SaveServer("", ServerConfig{Name: n, Transport: "stdio", Command: s.Command})
		added = append(added, n)
	}
	return added, skipped, nil
}
func (b *fakeBackend) Open(name string, onState func(StateView)) (Conn, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	c := b.conns[name]
	if c == nil {
		c = &fakeConn{name: name, ev: b.ev}
		b.conns[name] = c
	}
	c.onState = onState
	return c, nil
}
func (b *fakeBackend) Events() EventSource { return b.ev }
func (b *fakeBackend) SetRoots(name string, roots []Root) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, s := range b.servers {
		if s.Name == name {
			b.servers[i].Roots = nil
			for _, r := range roots {
				b.servers[i].Roots = append(b.servers[i].Roots, r.URI)
			}
		}
	}
	return nil
}

// fakeConn answers like a tiny server; fail makes Connect fail.
type fakeConn struct {
	name    string
	ev      *fakeEvents
	onState func(StateView)
	mu      sync.Mutex
	fail    error
	block   chan struct{} // Connect waits on it when set
	notify  func(Notification)
	level   string
	calls   int
}

func (c *fakeConn) Connect(ctx context.Context) error {
	c.mu.Lock()
	fail, block := c.fail, c.block
	c.mu.Unlock()
	if block != nil {
		select {
		case <-block:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return fail
}
func (c *fakeConn) Close() error { return nil }
func (c *fakeConn) Info() ServerInfo {
	return ServerInfo{ProtocolVersion: "2025-11-25", Name: "fake", Version: "1.0", Instructions: "Use it well.",
		ServerCapabilities: json.RawMessage(`{"tools":{"listChanged":true},"completions":{},"experimental":{"x.y":{}}}`),
		ClientCapabilities: json.RawMessage(`{"roots":{"listChanged":true}}`)}
}
func (c *fakeConn) ListTools(_ context.Context, cursor string) ([]Tool, string, error) {
	if cursor == "p2" {
		return []Tool{{Name: "later", Description: "On page two", InputSchema: json.RawMessage(`{"type":"object"}`)}}, "", nil
	}
	return []Tool{
		{Name: "echo", Description: "Echoes", InputSchema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}}}`), ReadOnly: true},
		{Name: "boom", Description: "Fails", InputSchema: json.RawMessage(`{"type":"object"}`), Destructive: true},
		{Name: "nothing", Description: "Empty result", InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "task", Description: "A task", InputSchema: json.RawMessage(`{"type":"object"}`), TaskSupport: "optional"},
	}, "p2", nil
}
func (c *fakeConn) CallTool(_ context.Context, req ToolCall, progress func(Progress)) (ToolResult, error) {
	c.mu.Lock()
	c.calls++
	c.mu.Unlock()
	if progress != nil {
		progress(Progress{Progress: 1, Total: 2, Message: "half way"})
	}
	switch {
	case req.AsTask:
		return ToolResult{TaskID: "t-1", Raw: json.RawMessage(`{"task":{"taskId":"t-1"}}`)}, nil
	case string(req.Arguments) == `{"message":"video"}`:
		return ToolResult{Content: []Content{{Type: "video", Raw: json.RawMessage(`{"type":"video","src":"v.mp4"}`)}},
			Problems: mcpresult.Problems{{Path: "/content/0", What: `unknown content type "video" (kept as sent)`}}}, nil
	case req.Name == "boom":
		return ToolResult{IsError: true, Content: []Content{{Type: "text", Text: "it broke"}}}, nil
	case req.Name == "nothing":
		return ToolResult{Raw: json.RawMessage(`{"content":[]}`)}, nil
	case req.Name == "protocol":
		return ToolResult{}, errors.New("-32602: unknown tool")
	}
	return ToolResult{Content: []Content{{Type: "text", Text: "got " + string(req.Arguments)}},
		StructuredContent: json.RawMessage(`{"n":1}`), SchemaAdvisory: "/n: expected string", Raw: json.RawMessage(`{}`)}, nil
}
func (c *fakeConn) ListResources(context.Context, string) ([]Resource, string, error) {
	return []Resource{{URI: "fake://a", Name: "a"}, {URI: "fake://bin", Name: "bin"}}, "", nil
}
func (c *fakeConn) ListResourceTemplates(context.Context) ([]ResourceTemplate, error) {
	return []ResourceTemplate{{URITemplate: "fake://greet/{lang}/{name}{?style}", Name: "greet", Description: "A greeting"}}, nil
}
func (c *fakeConn) ReadResource(_ context.Context, uri string) (ReadResult, error) {
	if uri == "fake://bin" {
		return ReadResult{Contents: []Content{{Type: "resource", URI: uri, MIMEType: "application/octet-stream", Data: []byte{1, 2, 3}}}}, nil
	}
	return ReadResult{Contents: []Content{{Type: "text", URI: uri, Text: "contents of " + uri}}}, nil
}
func (c *fakeConn) Subscribe(context.Context, string) error   { return nil }
func (c *fakeConn) Unsubscribe(context.Context, string) error { return nil }
func (c *fakeConn) Complete(ctx context.Context, ref, name, arg, value string) ([]string, error) {
	return c.CompleteWith(ctx, ref, name, arg, value, nil)
}

// CompleteWith completes the greet template's name from its lang (as the
// demo server does), and anything else with value+"1", value+"2".
func (c *fakeConn) CompleteWith(_ context.Context, ref, _, arg, value string, resolved map[string]string) ([]string, error) {
	if ref == "ref/resource" && arg == "lang" {
		return []string{"en", "fr"}, nil
	}
	if ref == "ref/resource" && arg == "name" {
		if resolved["lang"] == "fr" {
			return []string{"Amélie", "Camille"}, nil
		}
		return []string{"Alice", "Bob"}, nil
	}
	return []string{value + "1", value + "2"}, nil
}
func (c *fakeConn) ListPrompts(context.Context, string) ([]Prompt, string, error) {
	return []Prompt{{Name: "p", Title: "The prompt", Arguments: []PromptArgument{{Name: "who", Required: true}}}}, "", nil
}
func (c *fakeConn) GetPrompt(_ context.Context, _ string, args map[string]string) (PromptResult, error) {
	return PromptResult{Messages: []PromptMessage{{Role: "user", Content: Content{Type: "text", Text: "hello " + args["who"]}}}}, nil
}
func (c *fakeConn) SetLogLevel(_ context.Context, level string) error {
	c.mu.Lock()
	c.level = level
	c.mu.Unlock()
	return nil
}
func (c *fakeConn) ListTasks(context.Context) ([]Task, error) {
	return []Task{{ID: "t-1", Status: "working"}}, nil
}
func (c *fakeConn) GetTask(context.Context, string) (Task, error) {
	return Task{ID: "t-1", Status: "completed"}, nil
}
func (c *fakeConn) TaskResult(context.Context, string) (json.RawMessage, error) {
	return json.RawMessage(`{"content":[{"type":"text","text":"done"}]}`), nil
}
func (c *fakeConn) CancelTask(context.Context, string) error { return nil }
func (c *fakeConn) OnNotification(fn func(Notification)) {
	c.mu.Lock()
	c.notify = fn
	c.mu.Unlock()
}

// fakeEvents is an EventSource the test feeds by hand.
type fakeEvents struct {
	mu     sync.Mutex
	fns    []func(EventBatch) // the inspector's and each History's
	all    []EventView
	seq    uint64
	last   string
	memory int64 // SetEventMemory
}

func (f *fakeEvents) Subscribe(fn func(EventBatch)) func() {
	f.mu.Lock()
	f.fns = append(f.fns, fn)
	f.mu.Unlock()
	return func() {}
}
func (f *fakeEvents) After(seq uint64, max int) ([]EventView, error) { return nil, nil }
func (f *fakeEvents) Get(seq uint64) (EventView, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, e := range f.all {
		if e.Seq == seq {
			return e, true
		}
	}
	return EventView{}, false
}

// SetEventMemory records the memory bound the window gives the log.
func (f *fakeEvents) SetEventMemory(bytes int64) {
	f.mu.Lock()
	f.memory = bytes
	f.mu.Unlock()
}

// Search finds what the log's Search would among the events sent so far.
func (f *fakeEvents) Search(ctx context.Context, q EventQuery, found func([]uint64)) (uint64, error) {
	f.mu.Lock()
	all := slices.Clone(f.all)
	f.mu.Unlock()
	var last uint64
	var hits []uint64
	for _, e := range all {
		last = max(last, e.Seq)
		if e.Seq > q.After && e.Server == q.Server && (q.Category == "" || slices.Contains(e.Categories, q.Category)) && events.Match(e.Event, q.Text) {
			hits = append(hits, e.Seq)
		}
	}
	slices.Sort(hits)
	if len(hits) > 0 {
		found(hits)
	}
	return last, ctx.Err()
}

func (f *fakeEvents) WriteTrace(w io.Writer, server string) error {
	f.mu.Lock()
	f.last = server
	f.mu.Unlock()
	_, err := io.WriteString(w, `{"format":"spyglass-trace","conn":"`+server+`"}`)
	return err
}

// send delivers events as one batch (from a goroutine, as the log does).
func (f *fakeEvents) send(evs ...EventView) {
	f.mu.Lock()
	for i := range evs {
		if evs[i].Seq == 0 {
			f.seq++
			evs[i].Seq = f.seq
		}
		f.seq = max(f.seq, evs[i].Seq) // as in the log, a later event has a greater Seq
		if evs[i].Time.IsZero() {
			evs[i].Time = time.Now()
		}
		if evs[i].Event.Kind == "" {
			evs[i].Event = coreEvent(evs[i])
		}
	}
	f.all = append(f.all, evs...)
	fns := f.fns
	f.mu.Unlock()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, fn := range fns {
			fn(EventBatch{Events: evs})
		}
	}()
	<-done
}

// coreEvent is the recorded event a hand-made view stands for (cmd makes
// views of real ones), so that search, counters and the run waterfall,
// which are core/events' own, see it.
func coreEvent(v EventView) events.Event {
	e := events.Event{Seq: v.Seq, Time: v.Time, Conn: v.Server, Kind: events.Kind(v.Kind), Dir: events.Direction(v.Dir),
		Type: events.MessageType(v.Type), ID: v.ID, Method: v.Method, Raw: v.Raw, Text: v.Text, Run: v.Run, Pair: v.Pair, Size: v.Size}
	if v.Type == "request" {
		st := events.Waiting
		switch v.BadgeLevel {
		case "ok":
			st = events.OK
		case "error":
			st = events.Failed
		}
		e.Outcome = &events.Outcome{State: st, Latency: v.Latency}
	}
	return e
}

// newTestWindow opens a window on b with the headless driver.
func newTestWindow(t *testing.T, b *fakeBackend, opts *Options) *Window {
	t.Helper()
	a := test.NewTempApp(t)
	if opts == nil {
		opts = &Options{}
	}
	if opts.RetryDelay == 0 {
		opts.RetryDelay = 5 * time.Millisecond
	}
	var w *Window
	Sync(func() {
		w = New(a, b, opts)
		w.win.Resize(fyne.NewSize(1280, 800))
		w.win.Show()
	})
	t.Cleanup(func() { Sync(w.Close) })
	return w
}

// waitFor polls cond under the window's lock for up to a minute.
// shownWhen waits until the inspector's rows satisfy cond (its search
// runs on a goroutine and adds rows on the UI thread).
func shownWhen(t *testing.T, in *inspector, what string, cond func(titles []string) bool) {
	t.Helper()
	waitFor(t, what, func() bool { return !in.searching && cond(in.shownTitles()) }) // on the UI thread
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	// A bound for a loaded machine, not a timing assertion: under -race
	// beside other test binaries on 2 cores, connecting the fake backend
	// passed 10 s in nine tests of one run.
	if err := poll(time.Minute, what, cond); err != nil {
		t.Fatal(err)
	}
}

// texts returns every visible label text under o.
func texts(o fyne.CanvasObject) string {
	var b strings.Builder
	walkVisible(o, func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.Label:
			b.WriteString(x.Text + "\n")
		case *widget.RichText:
			b.WriteString(x.String() + "\n")
		case *widget.Button:
			b.WriteString("[" + x.Text + "]\n")
		case *esc.Button:
			b.WriteString("[" + x.Text + "]\n")
		case *widget.Check:
			b.WriteString(x.Text + "\n")
		case *esc.Check:
			b.WriteString(x.Text + "\n")
		case *badge:
			b.WriteString("<" + x.text + ">\n")
		case *rowText:
			b.WriteString(x.text + "\n")
		case *ident.Text:
			b.WriteString(x.Identifier() + "\n")
		}
	})
	return b.String()
}

func walkVisible(o fyne.CanvasObject, fn func(fyne.CanvasObject)) {
	if o == nil || !o.Visible() {
		return
	}
	fn(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			walkVisible(c, fn)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			walkVisible(c, fn)
		}
	}
}

// tapButton taps the visible button labelled text under o.
func tapButton(t *testing.T, o fyne.CanvasObject, text string) {
	t.Helper()
	var found *widget.Button
	walkVisible(o, func(o fyne.CanvasObject) {
		if b, ok := esc.AsButton(o); ok && b.Text == text && found == nil {
			found = b
		}
	})
	if found == nil {
		t.Fatalf("no button %q in %s", text, texts(o))
	}
	test.Tap(found)
}

// formEntry is the i-th visible entry under o (a ui/form form's fields,
// in order).
func formEntry(t *testing.T, o fyne.CanvasObject, i int) *widget.Entry {
	t.Helper()
	var ents []*widget.Entry
	walkVisible(o, func(o fyne.CanvasObject) {
		if e, ok := esc.AsEntry(o); ok {
			ents = append(ents, e)
		}
	})
	if i >= len(ents) {
		t.Fatalf("no entry #%d (of %d)", i, len(ents))
	}
	return ents[i]
}
