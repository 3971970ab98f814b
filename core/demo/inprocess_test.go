package demo

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// fakeUser answers the server's requests the way a test user would.
type fakeUser struct {
	mu          sync.Mutex
	roots       []mcp.Root
	samplings   []mcp.CreateMessageRequest
	elicitModes []string
}

func (u *fakeUser) CreateMessage(_ context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	u.mu.Lock()
	u.samplings = append(u.samplings, req)
	u.mu.Unlock()
	msgs := req.Messages
	last := msgs[len(msgs)-1]
	if len(req.Tools) > 0 && !strings.Contains(compactJSON(last.Content), "tool_result") {
		return &mcp.CreateMessageResult{
			SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: []mcp.Content{
				mcp.NewToolUseContent("call-1", "get_time", map[string]any{}),
				mcp.NewToolUseContent("call-2", "add", map[string]any{"a": 2, "b": 3}),
			}},
			Model: "fake-model", StopReason: "toolUse",
		}, nil
	}
	text := "A quiet lens / gathers the far light"
	if len(req.Tools) > 0 {
		text = "It is now; 2 + 3 = 5 (" + compactJSON(last.Content) + ")"
	}
	return &mcp.CreateMessageResult{
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent(text)},
		Model:           "fake-model", StopReason: "endTurn",
	}, nil
}

func (u *fakeUser) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	u.mu.Lock()
	u.elicitModes = append(u.elicitModes, req.Params.Mode)
	u.mu.Unlock()
	res := &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept}}
	if req.Params.Mode != mcp.ElicitationModeURL {
		res.Content = map[string]any{"name": "Ada", "level": "expert"}
	}
	return res, nil
}

func (u *fakeUser) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return &mcp.ListRootsResult{Roots: append([]mcp.Root(nil), u.roots...)}, nil
}

func (u *fakeUser) setRoots(r ...mcp.Root) {
	u.mu.Lock()
	u.roots = r
	u.mu.Unlock()
}

// notes collects notifications.
type notes struct {
	mu  sync.Mutex
	all []mcp.JSONRPCNotification
	ch  chan struct{}
}

func newNotes() *notes { return &notes{ch: make(chan struct{}, 1)} }

func (n *notes) add(x mcp.JSONRPCNotification) {
	n.mu.Lock()
	n.all = append(n.all, x)
	n.mu.Unlock()
	select {
	case n.ch <- struct{}{}:
	default:
	}
}

func (n *notes) count(method string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	c := 0
	for _, x := range n.all {
		if x.Method == method {
			c++
		}
	}
	return c
}

func (n *notes) byMethod(method string) []mcp.JSONRPCNotification {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []mcp.JSONRPCNotification
	for _, x := range n.all {
		if x.Method == method {
			out = append(out, x)
		}
	}
	return out
}

// waitFor waits (bounded) until cond holds.
func (n *notes) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for !cond() {
		select {
		case <-n.ch:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

type inproc struct {
	c     *client.Client
	user  *fakeUser
	notes *notes
	dir   string
}

func startInProcess(t *testing.T, opts *Options) *inproc {
	t.Helper()
	if opts == nil {
		opts = &Options{}
	}
	if opts.NotesDir == "" {
		opts.NotesDir = t.TempDir()
	}
	user := &fakeUser{roots: []mcp.Root{{URI: "file:///home/ada/project", Name: "project"}}}
	srv := New(opts)
	c, err := client.NewInProcessClientWithOptions(srv,
		//lint:ignore SA1019 the demo serves 2025-11-25 clients too; this suite tests that era
		client.WithLegacyProtocolOnly(),
		client.WithSamplingHandler(user),
		client.WithElicitationHandler(user),
		client.WithRootsHandler(user),
	)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	n := newNotes()
	c.OnNotification(n.add)
	caps := mcp.ClientCapabilities{
		Sampling:    &mcp.SamplingCapability{Tools: &struct{}{}},
		Elicitation: &mcp.ElicitationCapability{Form: &struct{}{}, URL: &struct{}{}},
	}
	caps.Roots = &struct {
		ListChanged bool `json:"listChanged,omitempty"`
	}{ListChanged: true}
	_, err = c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ProtocolVersion: mcp.LATEST_LEGACY_PROTOCOL_VERSION,
		ClientInfo:      mcp.Implementation{Name: "demo-test", Version: "0"},
		Capabilities:    caps,
	}})
	if err != nil {
		t.Fatal(err)
	}
	return &inproc{c: c, user: user, notes: n, dir: opts.NotesDir}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func (p *inproc) call(t *testing.T, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := p.c.CallTool(ctxT(t), mcp.CallToolRequest{Params: mcp.CallToolParams{Name: name, Arguments: args}})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func resultText(r *mcp.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func TestInProcessToolsAndSchemas(t *testing.T) {
	p := startInProcess(t, nil)
	ctx := ctxT(t)

	// Raw schemas reach the client with every keyword intact.
	raw, err := json.Marshal(mustListTools(t, p))
	if err != nil {
		t.Fatal(err)
	}
	for _, kw := range []string{`"oneOf"`, `"anyOf"`, `"const"`, `"enumNames"`, `"$ref"`, `"$defs"`, `"format":"uri"`,
		`"minimum"`, `"maximum"`, `"minLength"`, `"maxLength"`, `"default"`, `"required"`, `"description"`,
		`"outputSchema"`, `"readOnlyHint":true`, `"destructiveHint":true`, `"idempotentHint":true`, `"openWorldHint":true`,
		`"icons"`, `"taskSupport":"optional"`} {
		if !strings.Contains(string(raw), kw) {
			t.Errorf("tools/list lacks %s", kw)
		}
	}

	if got := resultText(p.call(t, ToolEcho, map[string]any{"message": "hi"})); got != "Echo: hi" {
		t.Errorf("echo = %q", got)
	}
	r := p.call(t, ToolFormChoices, map[string]any{"size": "large", "permissions": []any{"read", "write"}})
	if !strings.Contains(resultText(r), `"large"`) {
		t.Errorf("form_choices did not echo its arguments: %s", resultText(r))
	}
	w := p.call(t, ToolWeather, map[string]any{"city": "Oslo"})
	if sc, ok := w.StructuredContent.(map[string]any); !ok || sc["city"] != "Oslo" {
		t.Errorf("get_weather structuredContent = %#v", w.StructuredContent)
	}
	kinds := map[string]bool{}
	for _, name := range []string{ToolImage, ToolAudio, ToolResourceLink, ToolEmbeddedResource} {
		for _, c := range p.call(t, name, nil).Content {
			switch c.(type) {
			case mcp.ImageContent:
				kinds["image"] = true
			case mcp.AudioContent:
				kinds["audio"] = true
			case mcp.ResourceLink:
				kinds["resource_link"] = true
			case mcp.EmbeddedResource:
				kinds["resource"] = true
			}
		}
	}
	if len(kinds) != 4 {
		t.Errorf("content kinds = %v, want image, audio, resource_link, resource", kinds)
	}
	if f := p.call(t, ToolFail, nil); !f.IsError {
		t.Error("fail did not return isError")
	}
	if _, err := p.c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: ToolFail, Arguments: map[string]any{"mode": "protocol"}}}); err == nil {
		t.Error("fail mode protocol did not return a JSON-RPC error")
	}
	if got := resultText(p.call(t, ToolOpenWorldLookup, map[string]any{"word": "lens"})); !strings.Contains(got, "4 letters") {
		t.Errorf("lookup_word = %q", got)
	}
}

func mustListTools(t *testing.T, p *inproc) []mcp.Tool {
	t.Helper()
	res, err := p.c.ListTools(ctxT(t), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	return res.Tools
}

func TestInProcessProgressLogsFlood(t *testing.T) {
	p := startInProcess(t, nil)
	ctx := ctxT(t)
	req := mcp.CallToolRequest{Params: mcp.CallToolParams{Name: ToolSlowTask,
		Arguments: map[string]any{"steps": 3, "step_ms": 1}, Meta: &mcp.Meta{ProgressToken: "p1"}}}
	if _, err := p.c.CallTool(ctx, req); err != nil {
		t.Fatal(err)
	}
	p.notes.waitFor(t, "3 progress notifications", func() bool { return p.notes.count("notifications/progress") >= 3 })

	p.call(t, ToolLogLevels, nil)
	p.notes.waitFor(t, "8 log messages", func() bool { return p.notes.count("notifications/message") >= 8 })
	levels := map[any]bool{}
	for _, n := range p.notes.byMethod("notifications/message") {
		levels[n.Params.AdditionalFields["level"]] = true
	}
	if len(levels) != 8 {
		t.Errorf("levels seen: %v", levels)
	}

	before := p.notes.count("notifications/message")
	r := p.call(t, ToolFlood, map[string]any{"count": 500})
	if !strings.Contains(resultText(r), "Sent 500") {
		t.Errorf("flood = %q", resultText(r))
	}
	p.notes.waitFor(t, "500 flood messages", func() bool { return p.notes.count("notifications/message")-before >= 500 })

	pbefore := p.notes.count("notifications/progress")
	if _, err := p.c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: ToolFlood,
		Arguments: map[string]any{"count": 200, "kind": "progress"}, Meta: &mcp.Meta{ProgressToken: "f"}}}); err != nil {
		t.Fatal(err)
	}
	p.notes.waitFor(t, "200 progress notifications", func() bool { return p.notes.count("notifications/progress")-pbefore >= 200 })
	if r := p.call(t, ToolFlood, map[string]any{"kind": "progress"}); !r.IsError {
		t.Error("flood kind progress without a token did not fail")
	}
}

func TestInProcessSlowTaskCancel(t *testing.T) {
	p := startInProcess(t, nil)
	ctx, cancel := context.WithCancel(ctxT(t))
	done := make(chan error, 1)
	go func() {
		_, err := p.c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: ToolSlowTask,
			Arguments: map[string]any{"steps": 1000, "step_ms": 20}, Meta: &mcp.Meta{ProgressToken: 7}}})
		done <- err
	}()
	p.notes.waitFor(t, "first progress", func() bool { return p.notes.count("notifications/progress") >= 1 })
	cancel()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("cancelled slow_task returned a result")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("slow_task did not stop")
	}
}

func TestInProcessServerRequests(t *testing.T) {
	p := startInProcess(t, nil)

	if got := resultText(p.call(t, ToolSample, map[string]any{"prompt": "haiku"})); !strings.Contains(got, "quiet lens") {
		t.Errorf("sample = %q", got)
	}
	got := resultText(p.call(t, ToolSampleWithTools, map[string]any{"prompt": "time and sum"}))
	if !strings.Contains(got, "add({\"a\":2,\"b\":3}) → 5") || !strings.Contains(got, "finished after 2 round(s)") {
		t.Errorf("sample_with_tools = %q", got)
	}
	p.user.mu.Lock()
	if n := len(p.user.samplings); n != 3 {
		t.Errorf("sampling requests = %d, want 3", n)
	} else if tc := p.user.samplings[1].ToolChoice; tc == nil || tc.Mode != mcp.ToolChoiceModeAuto || len(p.user.samplings[1].Tools) != 2 {
		t.Errorf("sampling with tools lacks tools/toolChoice: %+v", p.user.samplings[1].CreateMessageParams)
	}
	p.user.mu.Unlock()

	ef := p.call(t, ToolElicitForm, nil)
	if !strings.Contains(resultText(ef), "accept") || !strings.Contains(resultText(ef), "Ada") {
		t.Errorf("elicit_form = %q", resultText(ef))
	}
	eu := p.call(t, ToolElicitURL, nil)
	if !strings.Contains(resultText(eu), "complete") {
		t.Errorf("elicit_url = %q", resultText(eu))
	}
	p.notes.waitFor(t, "elicitation/complete", func() bool { return p.notes.count("notifications/elicitation/complete") == 1 })

	lr := p.call(t, ToolListRoots, nil)
	if !strings.Contains(resultText(lr), "file:///home/ada/project") {
		t.Errorf("list_roots = %q", resultText(lr))
	}
	p.user.setRoots(mcp.Root{URI: "file:///tmp/other", Name: "other"})
	if err := p.c.RootListChanges(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	p.notes.waitFor(t, "a log about changed roots", func() bool {
		for _, n := range p.notes.byMethod("notifications/message") {
			if strings.Contains(compactJSON(n.Params.AdditionalFields["data"]), "file:///tmp/other") {
				return true
			}
		}
		return false
	})
}

func TestInProcessResourcesPromptsCompletions(t *testing.T) {
	p := startInProcess(t, nil)
	ctx := ctxT(t)

	rr, err := p.c.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil || len(rr.Resources) < 5 {
		t.Fatalf("resources/list: %v %v", rr, err)
	}
	logo, err := p.c.ReadResource(ctx, mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: LogoURI}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := logo.Contents[0].(mcp.BlobResourceContents); !ok {
		t.Errorf("logo is %T, want a blob", logo.Contents[0])
	}
	item, err := p.c.ReadResource(ctx, mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: "demo://items/10"}})
	if err != nil || item.Contents[0].(mcp.TextResourceContents).Text != "Item 10: Binoculars" {
		t.Errorf("template read: %v %v", item, err)
	}
	tl, err := p.c.ListResourceTemplates(ctx, mcp.ListResourceTemplatesRequest{})
	if err != nil || len(tl.ResourceTemplates) != 3 {
		t.Errorf("templates: %v %v", tl, err)
	}

	comp, err := p.c.Complete(ctx, mcp.CompleteRequest{Params: mcp.CompleteParams{
		Ref:      mcp.ResourceReference{Type: "ref/resource", URI: ItemTemplate},
		Argument: mcp.CompleteArgument{Name: "id", Value: "1"},
	}})
	if err != nil || strings.Join(comp.Completion.Values, ",") != "1,10,100,11,12" {
		t.Errorf("item completion: %v %v", comp, err)
	}
	comp, err = p.c.Complete(ctx, mcp.CompleteRequest{Params: mcp.CompleteParams{
		Ref:      mcp.ResourceReference{Type: "ref/resource", URI: GreetingTemplate},
		Argument: mcp.CompleteArgument{Name: "name", Value: "c"},
		Context:  mcp.CompleteContext{Arguments: map[string]string{"lang": "fr"}},
	}})
	if err != nil || strings.Join(comp.Completion.Values, ",") != "Camille" {
		t.Errorf("name completion with context: %v %v", comp, err)
	}
	comp, err = p.c.Complete(ctx, mcp.CompleteRequest{Params: mcp.CompleteParams{
		Ref:      mcp.PromptReference{Type: "ref/prompt", Name: PromptGreet},
		Argument: mcp.CompleteArgument{Name: "style", Value: "p"},
	}})
	if err != nil || strings.Join(comp.Completion.Values, ",") != "pirate,poetic" {
		t.Errorf("prompt completion: %v %v", comp, err)
	}
	pr, err := p.c.GetPrompt(ctx, mcp.GetPromptRequest{Params: mcp.GetPromptParams{Name: PromptGreet, Arguments: map[string]string{"name": "Ada", "style": "pirate"}}})
	if err != nil || !strings.Contains(pr.Messages[0].Content.(mcp.TextContent).Text, "Ada in a pirate style") {
		t.Errorf("prompts/get: %v %v", pr, err)
	}

	// Subscriptions.
	//lint:ignore SA1019 resources/subscribe is the legacy era's way, which the demo still serves
	if err := p.c.Subscribe(ctx, mcp.SubscribeRequest{Params: mcp.SubscribeParams{URI: CounterURI}}); err != nil {
		t.Fatal(err)
	}
	p.call(t, ToolBumpCounter, map[string]any{"by": 2})
	p.notes.waitFor(t, "resources/updated", func() bool { return p.notes.count("notifications/resources/updated") == 1 })
	c, err := p.c.ReadResource(ctx, mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: CounterURI}})
	if err != nil || c.Contents[0].(mcp.TextResourceContents).Text != "2" {
		t.Errorf("counter: %v %v", c, err)
	}

	// The tool list changes.
	n0 := len(mustListTools(t, p))
	p.call(t, ToolToggleExtra, nil)
	p.notes.waitFor(t, "tools/list_changed", func() bool { return p.notes.count("notifications/tools/list_changed") >= 1 })
	if n1 := len(mustListTools(t, p)); n1 != n0+1 {
		t.Errorf("tools after toggle: %d, want %d", n1, n0+1)
	}
	p.call(t, ToolToggleExtra, nil)
	if n2 := len(mustListTools(t, p)); n2 != n0 {
		t.Errorf("tools after second toggle: %d, want %d", n2, n0)
	}
}

func TestInProcessFlakyWrite(t *testing.T) {
	crashed := make(chan struct{})
	var once sync.Once
	p := startInProcess(t, &Options{Crash: func() { once.Do(func() { close(crashed) }) }})
	ctx, cancel := context.WithCancel(ctxT(t))
	done := make(chan error, 1)
	go func() {
		_, err := p.c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: ToolFlakyWrite, Arguments: map[string]any{"text": "buy milk"}}})
		done <- err
	}()
	select {
	case <-crashed:
	case <-time.After(10 * time.Second):
		t.Fatal("flaky_write never crashed")
	}
	// It never answers: the call ends only when the client gives up.
	cancel()
	if err := <-done; err == nil || !strings.Contains(err.Error(), context.Canceled.Error()) {
		t.Fatalf("flaky_write answered: %v", err)
	}

	notes, err := ReadNotes(filepath.Join(p.dir, NotesFile))
	if err != nil || len(notes) != 1 || notes[0].Text != "buy milk" {
		t.Fatalf("notes file: %v %v", notes, err)
	}
	if got := resultText(p.call(t, ToolReadNotes, nil)); !strings.Contains(got, "buy milk") {
		t.Errorf("read_notes = %q", got)
	}
	res, err := p.c.ReadResource(ctxT(t), mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: NotesURI}})
	if err != nil || !strings.Contains(res.Contents[0].(mcp.TextResourceContents).Text, "buy milk") {
		t.Errorf("demo://notes: %v %v", res, err)
	}
	if got := resultText(p.call(t, ToolClearNotes, nil)); got != "Deleted 1 note(s)." {
		t.Errorf("clear_notes = %q", got)
	}
}

func TestNotesPath(t *testing.T) {
	t.Setenv(NotesEnv, "/tmp/from-env")
	if got := (&Options{}).NotesPath(); got != "/tmp/from-env/"+NotesFile {
		t.Errorf("env: %s", got)
	}
	if got := (&Options{NotesDir: "/x"}).NotesPath(); got != "/x/"+NotesFile {
		t.Errorf("option: %s", got)
	}
	t.Setenv(NotesEnv, "")
	if got := (*Options)(nil).NotesPath(); !strings.HasSuffix(got, filepath.Join("spyglass", NotesFile)) {
		t.Errorf("default: %s", got)
	}
	_ = os.Getenv
}
