package demo

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Tool names of the demo server.
const (
	ToolEcho              = "echo"
	ToolFormText          = "form_text_and_numbers"
	ToolFormChoices       = "form_choices"
	ToolFormStructures    = "form_structures"
	ToolWeather           = "get_weather"
	ToolImage             = "get_image"
	ToolAudio             = "get_audio"
	ToolResourceLink      = "get_resource_link"
	ToolEmbeddedResource  = "get_embedded_resource"
	ToolFail              = "fail"
	ToolSlowTask          = "slow_task"
	ToolLogLevels         = "log_levels"
	ToolFlood             = "flood"
	ToolFlakyWrite        = "flaky_write"
	ToolReadNotes         = "read_notes"
	ToolClearNotes        = "clear_notes"
	ToolSample            = "sample"
	ToolSampleWithTools   = "sample_with_tools"
	ToolElicitForm        = "elicit_form"
	ToolElicitURL         = "elicit_url"
	ToolLinkAccount       = "link_account"
	ToolCompleteLink      = "complete_link"
	ToolListRoots         = "list_roots"
	ToolBumpCounter       = "bump_counter"
	ToolToggleExtra       = "toggle_extra_tool"
	ToolExtra             = "extra_tool"
	ToolCountdownTask     = "countdown_task"
	ToolOpenWorldLookup   = "lookup_word"
	maxSamplingToolRounds = 8
)

func boolp(b bool) *bool { return &b }

// annotations builds a complete ToolAnnotation.
func annotations(title string, readOnly, destructive, idempotent, openWorld bool) mcp.ToolAnnotation {
	return mcp.ToolAnnotation{
		Title:           title,
		ReadOnlyHint:    boolp(readOnly),
		DestructiveHint: boolp(destructive),
		IdempotentHint:  boolp(idempotent),
		OpenWorldHint:   boolp(openWorld),
	}
}

// readOnly are the annotations of a tool that only reads local state.
func readOnly(title string) mcp.ToolAnnotation { return annotations(title, true, false, true, false) }

// tool builds a tool with a raw input schema.
func tool(name, title, description string, schema string, ann mcp.ToolAnnotation, icons ...mcp.Icon) mcp.Tool {
	return mcp.Tool{
		Name:           name,
		Title:          title,
		Description:    description,
		RawInputSchema: json.RawMessage(schema),
		Annotations:    ann,
		Icons:          icons,
	}
}

const emptySchema = `{"type":"object","properties":{}}`

func (d *demo) addTools() {
	icon := iconPNG()
	d.srv.AddTools(
		server.ServerTool{Tool: tool(ToolEcho, "Echo", "Echoes the message back.",
			`{"type":"object","properties":{"message":{"type":"string","description":"Message to echo"}},"required":["message"]}`,
			readOnly("Echo"), icon), Handler: d.echo},
		server.ServerTool{Tool: tool(ToolFormText, "Form: text and numbers",
			"Strings with limits, a URI, bounded numbers and a checkbox. Returns the arguments it received.",
			string(schemaTextAndNumbers), readOnly("Form: text and numbers")), Handler: d.echoArgs},
		server.ServerTool{Tool: tool(ToolFormChoices, "Form: choices",
			"Enums, titled single and multi selects, and a legacy enum. Returns the arguments it received.",
			string(schemaChoices), readOnly("Form: choices")), Handler: d.echoArgs},
		server.ServerTool{Tool: tool(ToolFormStructures, "Form: structures",
			"Arrays, a nested object, a $ref to $defs and a non-enum anyOf. Returns the arguments it received.",
			string(schemaStructures), readOnly("Form: structures")), Handler: d.echoArgs},
		server.ServerTool{Tool: func() mcp.Tool {
			t := tool(ToolWeather, "Weather", "Made-up weather for a city, as structured content with an outputSchema.",
				`{"type":"object","properties":{"city":{"type":"string","description":"Any city name","default":"Lisbon"}},"required":["city"]}`,
				readOnly("Weather"), icon)
			t.RawOutputSchema = schemaWeatherOutput
			return t
		}(), Handler: d.weather},
		server.ServerTool{Tool: tool(ToolImage, "Image", "Returns a small PNG image.", emptySchema, readOnly("Image")), Handler: d.image},
		server.ServerTool{Tool: tool(ToolAudio, "Audio", "Returns a short WAV tone.", emptySchema, readOnly("Audio")), Handler: d.audio},
		server.ServerTool{Tool: tool(ToolResourceLink, "Resource link", "Returns links to demo resources.", emptySchema, readOnly("Resource link")), Handler: d.resourceLink},
		server.ServerTool{Tool: tool(ToolEmbeddedResource, "Embedded resource", "Returns a text and a binary resource embedded in the result; with size, the text resource is that many bytes (for trying large results).",
			`{"type":"object","properties":{"size":{"type":"integer","minimum":0,"maximum":`+fmt.Sprint(MaxEmbeddedSize)+`,"description":"Bytes of the text resource; 0 is the demo's README"}}}`,
			readOnly("Embedded resource")), Handler: d.embeddedResource},
		server.ServerTool{Tool: tool(ToolFail, "Fail", "Fails on purpose: mode tool returns an isError result, mode protocol a JSON-RPC error.",
			`{"type":"object","properties":{"mode":{"type":"string","enum":["tool","protocol"],"default":"tool"},"message":{"type":"string","default":"something went wrong"}}}`,
			readOnly("Fail")), Handler: d.fail},
		server.ServerTool{Tool: tool(ToolSlowTask, "Slow task", "Works for steps × step_ms milliseconds, reporting progress after every step; stops when cancelled.",
			`{"type":"object","properties":{"steps":{"type":"integer","minimum":1,"maximum":1000,"default":10},"step_ms":{"type":"integer","minimum":0,"maximum":60000,"default":500}}}`,
			readOnly("Slow task"), icon), Handler: d.slowTask},
		server.ServerTool{Tool: tool(ToolLogLevels, "Log levels", "Emits one log message at every level, debug to emergency. Honours logging/setLevel once the client has set one.",
			emptySchema, readOnly("Log levels")), Handler: d.logLevels},
		server.ServerTool{Tool: tool(ToolFlood, "Flood", "Sends count notifications as fast as the transport takes them (kind log: notifications/message; kind progress: notifications/progress, needs a progress token).",
			`{"type":"object","properties":{"count":{"type":"integer","minimum":1,"maximum":1000000,"default":1000},"kind":{"type":"string","enum":["log","progress"],"default":"log"}}}`,
			readOnly("Flood")), Handler: d.flood},
		server.ServerTool{Tool: tool(ToolFlakyWrite, "Flaky write", "Saves a note, then crashes the server before answering, like a flaky backend. read_notes shows the write happened.",
			`{"type":"object","properties":{"text":{"type":"string","description":"The note to save","minLength":1}},"required":["text"]}`,
			annotations("Flaky write", false, false, false, false), icon), Handler: d.flakyWrite},
		server.ServerTool{Tool: tool(ToolReadNotes, "Read notes", "Lists the saved notes.", emptySchema, readOnly("Read notes"), icon), Handler: d.readNotes},
		server.ServerTool{Tool: tool(ToolClearNotes, "Clear notes", "Deletes every saved note.", emptySchema,
			annotations("Clear notes", false, true, true, false)), Handler: d.clearNotes},
		server.ServerTool{Tool: tool(ToolSample, "Sample", "Asks the client's model for a completion (sampling/createMessage).",
			`{"type":"object","properties":{"prompt":{"type":"string","default":"Write a haiku about telescopes."},"max_tokens":{"type":"integer","minimum":1,"default":200}},"required":["prompt"]}`,
			annotations("Sample", true, false, false, true)), Handler: d.sample},
		server.ServerTool{Tool: tool(ToolSampleWithTools, "Sample with tools", "Sampling with tools and toolChoice: answers every tool call with its result and asks again until the model ends its turn.",
			`{"type":"object","properties":{"prompt":{"type":"string","default":"What time is it, and what is 2 + 3? Use the tools."},"tool_choice":{"type":"string","enum":["auto","required","none"],"default":"auto"}},"required":["prompt"]}`,
			annotations("Sample with tools", true, false, false, true)), Handler: d.sampleWithTools},
		server.ServerTool{Tool: tool(ToolElicitForm, "Elicit (form)", "Asks the user to fill in a form (elicitation/create, mode form).",
			`{"type":"object","properties":{"message":{"type":"string","default":"Tell the demo server about yourself."}}}`,
			readOnly("Elicit (form)")), Handler: d.elicitForm},
		server.ServerTool{Tool: tool(ToolElicitURL, "Elicit (URL)", "Asks the user to open a URL (elicitation/create, mode url), then sends notifications/elicitation/complete.",
			`{"type":"object","properties":{"url":{"type":"string","format":"uri","default":"https://example.com/spyglass-demo/consent"}}}`,
			annotations("Elicit (URL)", true, false, false, true)), Handler: d.elicitURL},
		server.ServerTool{Tool: tool(ToolLinkAccount, "Link account", "Needs a linked demo account. Until then a call fails with -32042 (URL elicitation required) naming a page to open; the demo finishes that page by itself after finish_ms (0: only when complete_link is called) and sends notifications/elicitation/complete, and the next call succeeds. With protocol 2026-07-28 it asks for the page in the call (a multi round-trip request) instead.",
			`{"type":"object","properties":{"finish_ms":{"type":"integer","minimum":0,"maximum":600000,"default":2000,"description":"When the page finishes by itself; 0 waits for complete_link"}}}`,
			annotations("Link account", false, false, true, true)), Handler: d.linkAccount},
		server.ServerTool{Tool: tool(ToolCompleteLink, "Complete link", "Finishes now every page link_account asked this session to open, as if the user had done it: sends notifications/elicitation/complete for each, and link_account succeeds from then on.",
			emptySchema, annotations("Complete link", false, false, true, false)), Handler: d.completeLink},
		server.ServerTool{Tool: tool(ToolListRoots, "List roots", "Lists the client's roots (roots/list). The server lists them again when the client sends notifications/roots/list_changed; see demo://roots.",
			emptySchema, readOnly("List roots")), Handler: d.listRoots},
		server.ServerTool{Tool: tool(ToolBumpCounter, "Bump counter", "Increments demo://counter; subscribers get notifications/resources/updated.",
			`{"type":"object","properties":{"by":{"type":"integer","default":1}}}`,
			annotations("Bump counter", false, false, false, false)), Handler: d.bumpCounter},
		server.ServerTool{Tool: tool(ToolToggleExtra, "Toggle extra tool", "Adds or removes the tool extra_tool; the server sends notifications/tools/list_changed.",
			emptySchema, annotations("Toggle extra tool", false, false, false, false)), Handler: d.toggleExtra},
		server.ServerTool{Tool: func() mcp.Tool {
			t := tool(ToolCountdownTask, "Countdown (task)", "Counts down; can run as a 2025-11-25 task (execution.taskSupport optional) or as a plain call.",
				`{"type":"object","properties":{"seconds":{"type":"integer","minimum":0,"maximum":600,"default":3}}}`,
				readOnly("Countdown (task)"))
			t.Execution = &mcp.ToolExecution{TaskSupport: mcp.TaskSupportOptional}
			return t
		}(), Handler: d.countdown},
		server.ServerTool{Tool: tool(ToolOpenWorldLookup, "Look up a word", "Pretends to look a word up in an online dictionary (openWorldHint).",
			`{"type":"object","properties":{"word":{"type":"string","minLength":1}},"required":["word"]}`,
			annotations("Look up a word", true, false, true, true)), Handler: d.lookupWord},
	)
}

func textResult(format string, a ...any) *mcp.CallToolResult {
	return mcp.NewToolResultText(fmt.Sprintf(format, a...))
}

func (d *demo) echo(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	msg, err := req.RequireString("message")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	return textResult("Echo: %s", msg), nil
}

// echoArgs answers with the arguments exactly as they arrived.
func (d *demo) echoArgs(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	raw := req.Params.RawArguments
	if len(raw) == 0 {
		b, err := json.Marshal(req.Params.Arguments)
		if err != nil {
			return nil, err
		}
		raw = b
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil || v == nil {
		v = map[string]any{}
	}
	pretty, _ := json.MarshalIndent(v, "", "  ")
	return &mcp.CallToolResult{
		Content:           []mcp.Content{mcp.NewTextContent("Received arguments:\n" + string(pretty))},
		StructuredContent: map[string]any{"arguments": v},
	}, nil
}

func (d *demo) weather(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	city := req.GetString("city", "Lisbon")
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(city)))
	n := h.Sum32()
	conditions := []string{"sunny", "cloudy", "rain", "snow"}[n%4]
	out := map[string]any{
		"city":        city,
		"temperature": float64(int(n%400)-50) / 10,
		"conditions":  conditions,
		"humidity":    int(n % 101),
	}
	b, _ := json.Marshal(out)
	return mcp.NewToolResultStructured(out, string(b)), nil
}

func (d *demo) image(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultImage("A 32×32 PNG:", pngBase64(), "image/png"), nil
}

func (d *demo) audio(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultAudio("A quarter second of A4 (440 Hz):", wavBase64(), "audio/wav"), nil
}

func (d *demo) resourceLink(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{
		mcp.NewTextContent("Two resources of this server:"),
		mcp.NewResourceLink(ReadmeURI, "readme", "About the demo server", "text/markdown"),
		mcp.NewResourceLink(LogoURI, "logo", "The demo server's logo", "image/png"),
	}}, nil
}

// MaxEmbeddedSize is the largest size get_embedded_resource accepts.
const MaxEmbeddedSize = 256 << 20

func (d *demo) embeddedResource(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	text := readmeText
	if n := req.GetInt("size", 0); n > 0 && n <= MaxEmbeddedSize {
		text = sizedText(n)
	} else if n != 0 {
		return mcp.NewToolResultErrorf("size must be between 0 and %d bytes, not %d", MaxEmbeddedSize, n), nil
	}
	return &mcp.CallToolResult{Content: []mcp.Content{
		mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: ReadmeURI, MIMEType: "text/markdown", Text: text}),
		mcp.NewEmbeddedResource(mcp.BlobResourceContents{URI: LogoURI, MIMEType: "image/png", Blob: pngBase64()}),
	}}, nil
}

func (d *demo) fail(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	msg := req.GetString("message", "something went wrong")
	if req.GetString("mode", "tool") == "protocol" {
		return nil, errors.New(msg)
	}
	return mcp.NewToolResultError(msg), nil
}

func (d *demo) lookupWord(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	w, err := req.RequireString("word")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	return textResult("%s: a word with %d letters (the demo server never goes online).", w, len([]rune(w))), nil
}

// progressToken returns the request's progress token, or nil.
func progressToken(req mcp.CallToolRequest) mcp.ProgressToken {
	if req.Params.Meta == nil {
		return nil
	}
	return req.Params.Meta.ProgressToken
}

// notify sends one notification to the session behind ctx, waiting while the
// session's outgoing queue is full instead of dropping it.
func (d *demo) notify(ctx context.Context, method string, params map[string]any) error {
	for {
		err := d.srv.SendNotificationToClient(ctx, method, params)
		if !errors.Is(err, server.ErrNotificationChannelBlocked) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Microsecond):
		}
	}
}

// drain waits (bounded) until the session's queued notifications have been
// handed to the transport, so that they reach the client before the result.
func drain(ctx context.Context) {
	s := server.ClientSessionFromContext(ctx)
	if s == nil {
		return
	}
	ch := s.NotificationChannel()
	deadline := time.Now().Add(10 * time.Second)
	for len(ch) > 0 && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Millisecond):
		}
	}
	// The writer has taken the last one off the queue; give it a moment to
	// write it.
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Millisecond):
	}
}

func (d *demo) slowTask(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	steps := req.GetInt("steps", 10)
	stepMS := req.GetInt("step_ms", 500)
	if steps < 1 {
		steps = 1
	}
	token := progressToken(req)
	for i := 1; i <= steps; i++ {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("slow_task stopped after %d of %d steps: %w", i-1, steps, ctx.Err())
		case <-time.After(time.Duration(stepMS) * time.Millisecond):
		}
		if token != nil {
			_ = d.notify(ctx, string(mcp.MethodNotificationProgress), map[string]any{
				"progressToken": token,
				"progress":      i,
				"total":         steps,
				"message":       fmt.Sprintf("step %d of %d", i, steps),
			})
		}
	}
	drain(ctx)
	return textResult("slow_task finished %d steps.", steps), nil
}

// logLevelsInOrder lists every MCP log level from least to most severe.
var logLevelsInOrder = []mcp.LoggingLevel{
	mcp.LoggingLevelDebug, mcp.LoggingLevelInfo, mcp.LoggingLevelNotice, mcp.LoggingLevelWarning,
	mcp.LoggingLevelError, mcp.LoggingLevelCritical, mcp.LoggingLevelAlert, mcp.LoggingLevelEmergency,
}

// log sends a log message at level to the session behind ctx. Once the
// client has called logging/setLevel, messages below its level are dropped;
// before that, everything is sent.
func (d *demo) log(ctx context.Context, level mcp.LoggingLevel, data any) error {
	if d.levelSet(sessionID(ctx)) {
		return d.srv.SendLogMessageToClient(ctx, mcp.NewLoggingMessageNotification(level, "demo", data))
	}
	return d.notify(ctx, string(mcp.MethodNotificationMessage), map[string]any{
		"level": level, "logger": "demo", "data": data,
	})
}

func (d *demo) levelSet(session string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.levels[session]
}

func (d *demo) logLevels(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	for _, l := range logLevelsInOrder {
		if err := d.log(ctx, l, fmt.Sprintf("a %s message from log_levels", l)); err != nil {
			return mcp.NewToolResultErrorf("could not send the %s message: %v", l, err), nil
		}
	}
	drain(ctx)
	return textResult("Sent one message at each of the %d levels.", len(logLevelsInOrder)), nil
}

func (d *demo) flood(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	count := req.GetInt("count", 1000)
	kind := req.GetString("kind", "log")
	token := progressToken(req)
	if kind == "progress" && token == nil {
		return mcp.NewToolResultError("kind progress needs a progress token in _meta.progressToken"), nil
	}
	start := time.Now()
	sent := 0
	for i := 1; i <= count; i++ {
		var err error
		if kind == "progress" {
			err = d.notify(ctx, string(mcp.MethodNotificationProgress), map[string]any{
				"progressToken": token, "progress": i, "total": count,
			})
		} else {
			err = d.notify(ctx, string(mcp.MethodNotificationMessage), map[string]any{
				"level": mcp.LoggingLevelInfo, "logger": "flood", "data": map[string]any{"seq": i, "of": count},
			})
		}
		if err != nil {
			return nil, fmt.Errorf("flood stopped after %d of %d notifications: %w", sent, count, err)
		}
		sent++
	}
	drain(ctx)
	return textResult("Sent %d %s notifications in %s.", sent, kind, time.Since(start).Round(time.Millisecond)), nil
}

func (d *demo) flakyWrite(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	text, err := req.RequireString("text")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	if _, err := d.notes.add(text); err != nil {
		return nil, err
	}
	d.notifyUpdated(NotesURI)
	d.crash()
	// A crash func that returns (tests): the call still never answers.
	<-ctx.Done()
	return nil, ctx.Err()
}

func (d *demo) readNotes(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	notes, err := d.notes.list()
	if err != nil {
		return nil, err
	}
	out := map[string]any{"notes": notesOrEmpty(notes)}
	if len(notes) == 0 {
		return mcp.NewToolResultStructured(out, "No notes saved yet."), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d note(s):", len(notes))
	for _, n := range notes {
		fmt.Fprintf(&b, "\n- %s (saved %s)", n.Text, n.SavedAt.Format(time.RFC3339))
	}
	return mcp.NewToolResultStructured(out, b.String()), nil
}

func notesOrEmpty(n []Note) []Note {
	if n == nil {
		return []Note{}
	}
	return n
}

func (d *demo) clearNotes(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	n, err := d.notes.clear()
	if err != nil {
		return nil, err
	}
	if n > 0 {
		d.notifyUpdated(NotesURI)
	}
	return textResult("Deleted %d note(s).", n), nil
}

// rawJSON re-decodes v (typically content decoded by mcp-go into an
// interface) into plain maps and slices.
func rawJSON(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return nil
	}
	return out
}

// contentBlocks returns the content of a sampling result as a list of
// objects, whether it was a single block or an array.
func contentBlocks(v any) []map[string]any {
	switch c := rawJSON(v).(type) {
	case map[string]any:
		return []map[string]any{c}
	case []any:
		var out []map[string]any
		for _, x := range c {
			if m, ok := x.(map[string]any); ok {
				out = append(out, m)
			}
		}
		return out
	}
	return nil
}

func blocksText(blocks []map[string]any) string {
	var parts []string
	for _, b := range blocks {
		if t, _ := b["text"].(string); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n")
}

// The server→client requests below are written as multi round-trip
// handlers (protocol 2026-07-28): the handler returns the requests it needs
// answered and is called again with the answers. mcp-go turns them into
// ordinary server→client requests for clients of earlier protocol versions,
// so one handler serves both eras.

func (d *demo) sample(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if res := server.SamplingResponse(req.Params.InputResponses, "sample"); res != nil {
		text := blocksText(contentBlocks(res.Content))
		return textResult("The model (%s) answered (stopReason %q):\n%s", res.Model, res.StopReason, text), nil
	}
	prompt := req.GetString("prompt", "Write a haiku about telescopes.")
	return server.NewInputRequestBuilder("").Sample("sample", mcp.CreateMessageParams{
		Messages:     []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent(prompt)}},
		SystemPrompt: "You are the model behind Spyglass's demo server.",
		MaxTokens:    req.GetInt("max_tokens", 200),
		ModelPreferences: &mcp.ModelPreferences{
			Hints:                []mcp.ModelHint{{Name: "claude"}},
			IntelligencePriority: 0.5, SpeedPriority: 0.5,
		},
	}).ToolResult(), nil
}

// samplingTools are the tools sample_with_tools offers to the model.
var samplingTools = []mcp.Tool{
	{
		Name:           "get_time",
		Description:    "The current time in UTC, RFC 3339.",
		RawInputSchema: json.RawMessage(emptySchema),
	},
	{
		Name:           "add",
		Description:    "Adds two numbers.",
		RawInputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`),
	},
}

// runSamplingTool answers one tool_use block of the model.
func runSamplingTool(name string, input map[string]any) (string, bool) {
	switch name {
	case "get_time":
		return time.Now().UTC().Format(time.RFC3339), false
	case "add":
		a, ok1 := input["a"].(float64)
		b, ok2 := input["b"].(float64)
		if !ok1 || !ok2 {
			return "add needs numbers a and b", true
		}
		return fmt.Sprint(a + b), false
	}
	return "no such tool: " + name, true
}

// toolLoopState is sample_with_tools' requestState: the conversation so
// far and what happened in each round.
type toolLoopState struct {
	Round    int               `json:"round"`
	Messages []json.RawMessage `json:"messages"`
	Log      []string          `json:"log"`
}

func (d *demo) sampleWithTools(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	choice := mcp.ToolChoiceMode(req.GetString("tool_choice", "auto"))
	var st toolLoopState
	if req.Params.RequestState != "" {
		if err := json.Unmarshal([]byte(req.Params.RequestState), &st); err != nil {
			return mcp.NewToolResultErrorf("bad requestState: %v", err), nil
		}
	} else {
		prompt := req.GetString("prompt", "What time is it, and what is 2 + 3? Use the tools.")
		first, _ := json.Marshal(mcp.SamplingMessage{Role: mcp.RoleUser, Content: mcp.NewTextContent(prompt)})
		st.Messages = []json.RawMessage{first}
	}
	if res := server.SamplingResponse(req.Params.InputResponses, fmt.Sprintf("round-%d", st.Round)); res != nil {
		blocks := contentBlocks(res.Content)
		var results []any
		for _, b := range blocks {
			if b["type"] != "tool_use" {
				continue
			}
			name, _ := b["name"].(string)
			id, _ := b["id"].(string)
			input, _ := b["input"].(map[string]any)
			out, isErr := runSamplingTool(name, input)
			st.Log = append(st.Log, fmt.Sprintf("round %d: %s(%s) → %s", st.Round, name, compactJSON(input), out))
			results = append(results, mcp.NewToolResultContent(id, []mcp.Content{mcp.NewTextContent(out)}, isErr))
		}
		if res.StopReason != "toolUse" || len(results) == 0 {
			st.Log = append(st.Log, fmt.Sprintf("round %d: %s (stopReason %q)", st.Round, blocksText(blocks), res.StopReason))
			return textResult("The model (%s) finished after %d round(s):\n%s", res.Model, st.Round, strings.Join(st.Log, "\n")), nil
		}
		if st.Round >= maxSamplingToolRounds {
			return mcp.NewToolResultErrorf("the model was still calling tools after %d rounds:\n%s", st.Round, strings.Join(st.Log, "\n")), nil
		}
		asst, _ := json.Marshal(mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: rawJSON(res.Content)})
		user, _ := json.Marshal(mcp.SamplingMessage{Role: mcp.RoleUser, Content: results})
		st.Messages = append(st.Messages, asst, user)
	}
	st.Round++
	messages := make([]mcp.SamplingMessage, 0, len(st.Messages))
	for _, m := range st.Messages {
		var sm struct {
			Role    mcp.Role        `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(m, &sm); err != nil {
			return mcp.NewToolResultErrorf("bad requestState: %v", err), nil
		}
		messages = append(messages, mcp.SamplingMessage{Role: sm.Role, Content: sm.Content})
	}
	state, _ := json.Marshal(st)
	return server.NewInputRequestBuilder(string(state)).Sample(fmt.Sprintf("round-%d", st.Round), mcp.CreateMessageParams{
		Messages:   messages,
		MaxTokens:  500,
		Tools:      samplingTools,
		ToolChoice: &mcp.ToolChoice{Mode: choice},
	}).ToolResult(), nil
}

func compactJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// elicitFormSchema is the flat schema elicit_form asks the user to fill in.
var elicitFormSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "name": {"type": "string", "title": "Your name", "minLength": 1, "maxLength": 50},
    "email": {"type": "string", "title": "Email", "format": "email"},
    "age": {"type": "integer", "title": "Age", "minimum": 0, "maximum": 150},
    "level": {
      "type": "string", "title": "Experience",
      "oneOf": [
        {"const": "new", "title": "New to MCP"},
        {"const": "some", "title": "Built a server or two"},
        {"const": "expert", "title": "I write the spec"}
      ],
      "default": "some"
    },
    "topics": {
      "type": "array", "title": "Interests",
      "items": {"type": "string", "anyOf": [
        {"const": "tools", "title": "Tools"},
        {"const": "resources", "title": "Resources"},
        {"const": "prompts", "title": "Prompts"}
      ]}
    },
    "newsletter": {"type": "boolean", "title": "Subscribe to the newsletter", "default": false}
  },
  "required": ["name"]
}`)

func (d *demo) elicitForm(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if res := server.ElicitationResponse(req.Params.InputResponses, "form"); res != nil {
		out := map[string]any{"action": string(res.Action)}
		if res.Content != nil {
			out["content"] = rawJSON(res.Content)
		}
		return mcp.NewToolResultStructured(out, fmt.Sprintf("The user chose %s: %s", res.Action, compactJSON(out["content"]))), nil
	}
	var schema any
	_ = json.Unmarshal(elicitFormSchema, &schema)
	return server.NewInputRequestBuilder("").Elicit("form", mcp.ElicitationParams{
		Mode:            mcp.ElicitationModeForm,
		Message:         req.GetString("message", "Tell the demo server about yourself."),
		RequestedSchema: schema,
	}).ToolResult(), nil
}

func randomID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (d *demo) elicitURL(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if res := server.ElicitationResponse(req.Params.InputResponses, "url"); res != nil {
		id := req.Params.RequestState
		if res.Action != mcp.ElicitationResponseActionAccept {
			return textResult("The user chose %s; nothing was opened.", res.Action), nil
		}
		// The out-of-band step "finishes" at once in the demo.
		if err := d.srv.SendElicitationComplete(ctx, server.ClientSessionFromContext(ctx), id); err != nil {
			return mcp.NewToolResultErrorf("could not send notifications/elicitation/complete: %v", err), nil
		}
		drain(ctx)
		return textResult("The user accepted; elicitation %s is complete.", id), nil
	}
	id := randomID()
	u := req.GetString("url", "https://example.com/spyglass-demo/consent")
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	return server.NewInputRequestBuilder(id).Elicit("url", mcp.ElicitationParams{
		Mode:          mcp.ElicitationModeURL,
		Message:       "Open this page to finish connecting the demo account.",
		ElicitationID: id,
		URL:           u + sep + "elicitation=" + id,
	}).ToolResult(), nil
}

// linkAccount shows the URL-elicitation-required error path: the call
// cannot go through until the user has opened a page.
func (d *demo) linkAccount(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	sess := server.ClientSessionFromContext(ctx)
	key := ""
	if sess != nil {
		key = sess.SessionID()
	}
	d.mu.Lock()
	linked := d.linked[key]
	d.mu.Unlock()
	if linked {
		return textResult("The demo account is linked to this session."), nil
	}
	if mcp.IsModernProtocol(server.RequestProtocolVersion(ctx)) {
		// -32042 is reserved from 2026-07-28 on: ask within the call.
		if res := server.ElicitationResponse(req.Params.InputResponses, "url"); res != nil {
			if res.Action != mcp.ElicitationResponseActionAccept {
				return textResult("The user chose %s; the account stays unlinked.", res.Action), nil
			}
			d.mu.Lock()
			d.linked[key] = true
			d.mu.Unlock()
			return textResult("The demo account is linked to this session."), nil
		}
		id := randomID()
		return server.NewInputRequestBuilder(id).Elicit("url", mcp.ElicitationParams{
			Mode: mcp.ElicitationModeURL, Message: "Open this page to link your demo account.",
			ElicitationID: id, URL: "https://example.com/spyglass-demo/link-account?elicitation=" + id,
		}).ToolResult(), nil
	}
	id := randomID()
	d.mu.Lock()
	d.pending[id] = pendingLink{key: key, sess: sess}
	d.mu.Unlock()
	// The page "finishes" by itself in the demo, or when complete_link is
	// called.
	if finish := time.Duration(req.GetInt("finish_ms", 2000)) * time.Millisecond; finish > 0 {
		time.AfterFunc(finish, func() { d.finishLink(context.Background(), id) })
	}
	return nil, mcp.URLElicitationRequiredError{Elicitations: []mcp.ElicitationParams{{
		Mode:          mcp.ElicitationModeURL,
		Message:       "Open this page to link your demo account, then call link_account again.",
		ElicitationID: id,
		URL:           "https://example.com/spyglass-demo/link-account?elicitation=" + id,
	}}}
}

// pendingLink is a link_account page not finished yet.
type pendingLink struct {
	key  string // the session id the account is linked for
	sess server.ClientSession
}

// finishLink finishes the page id (once): the account is linked and the
// session gets notifications/elicitation/complete. It reports whether the
// page was still pending.
func (d *demo) finishLink(ctx context.Context, id string) bool {
	d.mu.Lock()
	p, ok := d.pending[id]
	if ok {
		delete(d.pending, id)
		d.linked[p.key] = true
	}
	d.mu.Unlock()
	if ok && p.sess != nil {
		_ = d.srv.SendElicitationComplete(ctx, p.sess, id)
	}
	return ok
}

// completeLink finishes every link_account page of the calling session.
func (d *demo) completeLink(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	key := sessionID(ctx)
	var ids []string
	d.mu.Lock()
	for id, p := range d.pending {
		if p.key == key {
			ids = append(ids, id)
		}
	}
	d.mu.Unlock()
	n := 0
	for _, id := range ids {
		if d.finishLink(ctx, id) {
			n++
		}
	}
	drain(ctx)
	if n == 0 {
		return textResult("No link_account page was waiting."), nil
	}
	return textResult("Completed %d link_account page(s); the demo account is linked.", n), nil
}

func (d *demo) listRoots(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	res := server.RootsResponse(req.Params.InputResponses, "roots")
	if res == nil {
		return server.NewInputRequestBuilder("").Roots("roots").ToolResult(), nil
	}
	roots := d.setRoots(res.Roots)
	return mcp.NewToolResultStructured(map[string]any{"roots": roots}, rootsText(roots)), nil
}

func rootsText(roots []mcp.Root) string {
	if len(roots) == 0 {
		return "The client has no roots."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The client has %d root(s):", len(roots))
	for _, r := range roots {
		fmt.Fprintf(&b, "\n- %s", r.URI)
		if r.Name != "" {
			fmt.Fprintf(&b, " (%s)", r.Name)
		}
	}
	return b.String()
}

// fetchRoots asks the client for its roots (a server→client request, so
// only before protocol 2026-07-28) and remembers them.
func (d *demo) fetchRoots(ctx context.Context) ([]mcp.Root, error) {
	res, err := d.srv.RequestRoots(ctx, mcp.ListRootsRequest{Request: mcp.Request{Method: string(mcp.MethodListRoots)}})
	if err != nil {
		return nil, err
	}
	return d.setRoots(res.Roots), nil
}

// setRoots remembers the client's roots and tells demo://roots subscribers.
func (d *demo) setRoots(roots []mcp.Root) []mcp.Root {
	if roots == nil {
		roots = []mcp.Root{}
	}
	d.mu.Lock()
	d.roots = roots
	d.rootsGen++
	d.mu.Unlock()
	d.notifyUpdated(RootsURI)
	return roots
}

// onRootsListChanged lists the client's roots again and tells the client
// what it saw, with a log message and an update of demo://roots.
func (d *demo) onRootsListChanged(ctx context.Context, _ mcp.JSONRPCNotification) {
	// The notification is handled on the transport's reading goroutine; the
	// roots/list answer arrives on that same goroutine, so ask from another.
	ctx = d.withSession(context.WithoutCancel(ctx))
	go func() {
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		roots, err := d.fetchRoots(ctx)
		if errors.Is(err, server.ErrServerInitiatedRequestUnsupported) {
			_ = d.log(ctx, mcp.LoggingLevelNotice, "roots changed; call list_roots to see them")
			return
		}
		if err != nil {
			_ = d.log(ctx, mcp.LoggingLevelWarning, fmt.Sprintf("roots changed, but roots/list failed: %v", err))
			return
		}
		_ = d.log(ctx, mcp.LoggingLevelNotice, "roots changed: "+rootsText(roots))
	}()
}

func (d *demo) bumpCounter(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	by := req.GetInt("by", 1)
	d.mu.Lock()
	d.counter += by
	n := d.counter
	d.mu.Unlock()
	d.notifyUpdated(CounterURI)
	return textResult("demo://counter is now %d.", n), nil
}

func (d *demo) toggleExtra(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	d.mu.Lock()
	d.extraOn = !d.extraOn
	on := d.extraOn
	d.mu.Unlock()
	if on {
		d.srv.AddTool(tool(ToolExtra, "Extra tool", "A tool that comes and goes with toggle_extra_tool.", emptySchema, readOnly("Extra tool")),
			func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return textResult("Hello from the extra tool."), nil
			})
		return textResult("Added %s; the tool list changed.", ToolExtra), nil
	}
	d.srv.DeleteTools(ToolExtra)
	return textResult("Removed %s; the tool list changed.", ToolExtra), nil
}

func (d *demo) countdown(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	n := req.GetInt("seconds", 3)
	token := progressToken(req)
	if req.Params.Task != nil {
		tctx, done := d.tasks.claim(ctx, ToolCountdownTask)
		defer done()
		ctx = tctx
	}
	for i := n; i > 0; i-- {
		if token != nil {
			_ = d.notify(ctx, string(mcp.MethodNotificationProgress), map[string]any{
				"progressToken": token, "progress": n - i, "total": n, "message": fmt.Sprintf("%d…", i),
			})
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("countdown stopped at %d: %w", i, ctx.Err())
		case <-time.After(time.Second):
		}
	}
	return textResult("Liftoff after %d second(s).", n), nil
}
