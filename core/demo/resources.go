package demo

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// Resource URIs and templates of the demo server.
const (
	ReadmeURI        = "demo://readme"
	LogoURI          = "demo://logo.png"
	CounterURI       = "demo://counter"
	RootsURI         = "demo://roots"
	ItemTemplate     = "demo://items/{id}"
	GreetingTemplate = "demo://greetings/{lang}/{name}"
	// LargeTemplate reads as big as asked: kind text (the README
	// repeated) or blob (bytes, served as base64), size in bytes up to
	// MaxEmbeddedSize — for trying large reads (issue #17).
	LargeTemplate = "demo://large/{kind}/{size}"
)

const readmeText = `# Spyglass demo server

This server exists so that Spyglass has something to inspect out of the box.

- **Tools**: forms of every shape, rich results, progress, logs, a flaky write.
- **Resources**: this readme, a PNG logo, notes, a counter you can subscribe to.
- **Prompts**: with arguments and completions.
`

// items are the entries behind demo://items/{id}.
var items = map[string]string{
	"1": "Refracting telescope", "2": "Reflecting telescope", "3": "Catadioptric telescope",
	"10": "Binoculars", "11": "Spotting scope", "12": "Monocular", "100": "Radio telescope",
}

// greetings are the languages behind demo://greetings/{lang}/{name}.
var greetings = map[string]string{
	"en": "Hello", "es": "Hola", "fr": "Bonjour", "de": "Hallo", "pt": "Olá", "ja": "こんにちは",
}

func (d *demo) addResources() {
	d.srv.AddResource(mcp.NewResource(ReadmeURI, "readme",
		mcp.WithResourceTitle("About the demo server"),
		mcp.WithResourceDescription("A short Markdown text."),
		mcp.WithMIMEType("text/markdown"),
		mcp.WithAnnotations([]mcp.Role{mcp.RoleUser, mcp.RoleAssistant}, 0.8, ""),
		mcp.WithResourceIcons(iconPNG()),
	), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: ReadmeURI, MIMEType: "text/markdown", Text: readmeText}}, nil
	})
	d.srv.AddResource(mcp.NewResource(LogoURI, "logo",
		mcp.WithResourceTitle("Logo (binary)"),
		mcp.WithResourceDescription("A 32×32 PNG, served as a base64 blob."),
		mcp.WithMIMEType("image/png"),
		mcp.WithResourceSize(int64(len(pngBytes()))),
	), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return []mcp.ResourceContents{mcp.BlobResourceContents{URI: LogoURI, MIMEType: "image/png", Blob: pngBase64()}}, nil
	})
	d.srv.AddResource(mcp.NewResource(NotesURI, "notes",
		mcp.WithResourceTitle("Saved notes"),
		mcp.WithResourceDescription("What flaky_write saved. Subscribe to hear about new notes."),
		mcp.WithMIMEType("application/json"),
	), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		notes, err := d.notes.list()
		if err != nil {
			return nil, err
		}
		b, _ := json.MarshalIndent(notesFile{Notes: notesOrEmpty(notes)}, "", "  ")
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: NotesURI, MIMEType: "application/json", Text: string(b)}}, nil
	})
	d.srv.AddResource(mcp.NewResource(CounterURI, "counter",
		mcp.WithResourceTitle("Counter"),
		mcp.WithResourceDescription("A number that bump_counter increments. Subscribe to it."),
		mcp.WithMIMEType("text/plain"),
	), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		d.mu.Lock()
		n := d.counter
		d.mu.Unlock()
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: CounterURI, MIMEType: "text/plain", Text: fmt.Sprint(n)}}, nil
	})
	d.srv.AddResource(mcp.NewResource(RootsURI, "roots",
		mcp.WithResourceTitle("The client's roots"),
		mcp.WithResourceDescription("The roots the server last listed (list_roots, or after notifications/roots/list_changed)."),
		mcp.WithMIMEType("application/json"),
	), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		d.mu.Lock()
		out := map[string]any{"roots": d.roots, "listed": d.rootsGen}
		d.mu.Unlock()
		b, _ := json.MarshalIndent(out, "", "  ")
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: RootsURI, MIMEType: "application/json", Text: string(b)}}, nil
	})

	d.srv.AddResourceTemplate(mcp.NewResourceTemplate(ItemTemplate, "item",
		mcp.WithTemplateTitle("Catalogue item"),
		mcp.WithTemplateDescription("One item of a small catalogue; id completes (try 1)."),
		mcp.WithTemplateMIMEType("text/plain"),
	), func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		id := strings.TrimPrefix(req.Params.URI, "demo://items/")
		name, ok := items[id]
		if !ok {
			return nil, fmt.Errorf("no item %q (ids: %s)", id, strings.Join(slices.Sorted(maps.Keys(items)), ", "))
		}
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: fmt.Sprintf("Item %s: %s", id, name)}}, nil
	})
	d.srv.AddResourceTemplate(mcp.NewResourceTemplate(GreetingTemplate, "greeting",
		mcp.WithTemplateTitle("Greeting"),
		mcp.WithTemplateDescription("A greeting in a language; lang completes, and name completes from lang."),
		mcp.WithTemplateMIMEType("text/plain"),
	), func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		rest := strings.TrimPrefix(req.Params.URI, "demo://greetings/")
		lang, name, _ := strings.Cut(rest, "/")
		hello, ok := greetings[lang]
		if !ok {
			hello = greetings["en"]
		}
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: hello + ", " + name + "!"}}, nil
	})
	d.srv.AddResourceTemplate(mcp.NewResourceTemplate(LargeTemplate, "large",
		mcp.WithTemplateTitle("Large read"),
		mcp.WithTemplateDescription("As many bytes as size says (up to 256 MB): kind text is Markdown, kind blob binary (try text/52428800)."),
	), readLarge)
}

// readLarge serves demo://large/{kind}/{size}.
func readLarge(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	kind, size, _ := strings.Cut(strings.TrimPrefix(req.Params.URI, "demo://large/"), "/")
	n, err := strconv.Atoi(size)
	if err != nil || n < 0 || n > MaxEmbeddedSize {
		return nil, fmt.Errorf("size must be a number of bytes from 0 to %d, not %q", MaxEmbeddedSize, size)
	}
	switch kind {
	case "text":
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/markdown", Text: sizedText(n)}}, nil
	case "blob":
		b := bytes.Repeat([]byte{0x89, 'S', 'P', 'Y', 0, 1, 2, 3}, n/8+1)[:n]
		return []mcp.ResourceContents{mcp.BlobResourceContents{URI: req.Params.URI, MIMEType: "application/octet-stream", Blob: base64.StdEncoding.EncodeToString(b)}}, nil
	}
	return nil, fmt.Errorf("kind must be text or blob, not %q", kind)
}

// sizedText is the README repeated and cut to exactly n bytes (it is
// ASCII).
func sizedText(n int) string {
	return strings.Repeat(readmeText, n/len(readmeText)+1)[:n]
}

// complete returns the candidates that start with prefix.
func complete(prefix string, candidates []string) *mcp.Completion {
	out := []string{}
	for _, c := range candidates {
		if strings.HasPrefix(strings.ToLower(c), strings.ToLower(prefix)) {
			out = append(out, c)
		}
	}
	return &mcp.Completion{Values: out, Total: len(out)}
}

// namesByLang are the name completions of the greeting template, which
// depend on the already chosen lang.
var namesByLang = map[string][]string{
	"en": {"Alice", "Bob", "Carol"}, "es": {"Alba", "Bruno", "Carmen"}, "fr": {"Amélie", "Bastien", "Camille"},
	"de": {"Anna", "Bernd", "Clara"}, "pt": {"Ana", "Bernardo", "Catarina"}, "ja": {"Aiko", "Haruto", "Yui"},
}

type resourceCompleter struct{}

// CompleteResourceArgument completes the variables of the demo's resource
// templates.
func (resourceCompleter) CompleteResourceArgument(_ context.Context, uri string, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	switch {
	case uri == ItemTemplate && arg.Name == "id":
		return complete(arg.Value, slices.Sorted(maps.Keys(items))), nil
	case uri == GreetingTemplate && arg.Name == "lang":
		return complete(arg.Value, slices.Sorted(maps.Keys(greetings))), nil
	case uri == GreetingTemplate && arg.Name == "name":
		names := namesByLang[cc.Arguments["lang"]]
		if names == nil {
			names = namesByLang["en"]
		}
		return complete(arg.Value, names), nil
	}
	return &mcp.Completion{Values: []string{}}, nil
}

// Prompt names of the demo server.
const (
	PromptGreet      = "greet"
	PromptCodeReview = "code_review"
	PromptNotes      = "summarize_notes"
)

var promptStyles = []string{"casual", "formal", "pirate", "poetic"}
var promptLanguages = []string{"c", "go", "javascript", "python", "rust", "typescript", "zig"}

func (d *demo) addPrompts() {
	d.srv.AddPrompt(mcp.NewPrompt(PromptGreet,
		mcp.WithPromptTitle("Greet someone"),
		mcp.WithPromptDescription("A greeting; style completes."),
		mcp.WithPromptIcons(iconPNG()),
		mcp.WithArgument("name", mcp.ArgumentTitle("Name"), mcp.ArgumentDescription("Who to greet"), mcp.RequiredArgument()),
		mcp.WithArgument("style", mcp.ArgumentTitle("Style"), mcp.ArgumentDescription("casual, formal, pirate or poetic")),
	), func(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		name := req.Params.Arguments["name"]
		if name == "" {
			return nil, fmt.Errorf("argument name is required")
		}
		style := req.Params.Arguments["style"]
		if style == "" {
			style = "casual"
		}
		return mcp.NewGetPromptResult("A greeting", []mcp.PromptMessage{
			mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(fmt.Sprintf("Greet %s in a %s style.", name, style))),
		}), nil
	})
	d.srv.AddPrompt(mcp.NewPrompt(PromptCodeReview,
		mcp.WithPromptTitle("Review code"),
		mcp.WithPromptDescription("Asks for a code review; language completes."),
		mcp.WithArgument("language", mcp.ArgumentDescription("Programming language"), mcp.RequiredArgument()),
		mcp.WithArgument("code", mcp.ArgumentDescription("The code to review"), mcp.RequiredArgument()),
	), func(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		lang, code := req.Params.Arguments["language"], req.Params.Arguments["code"]
		return mcp.NewGetPromptResult("A code review request", []mcp.PromptMessage{
			mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(fmt.Sprintf("Review this %s code:\n\n%s", lang, code))),
			mcp.NewPromptMessage(mcp.RoleAssistant, mcp.NewTextContent("Happy to. Here is what I see:")),
		}), nil
	})
	d.srv.AddPrompt(mcp.NewPrompt(PromptNotes,
		mcp.WithPromptTitle("Summarize notes"),
		mcp.WithPromptDescription("Embeds the saved notes (demo://notes) in a prompt."),
	), func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		notes, err := d.notes.list()
		if err != nil {
			return nil, err
		}
		b, _ := json.MarshalIndent(notesFile{Notes: notesOrEmpty(notes)}, "", "  ")
		return mcp.NewGetPromptResult("The saved notes", []mcp.PromptMessage{
			mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("Summarize these notes:")),
			mcp.NewPromptMessage(mcp.RoleUser, mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: NotesURI, MIMEType: "application/json", Text: string(b)})),
		}), nil
	})
}

type promptCompleter struct{}

// CompletePromptArgument completes the arguments of the demo's prompts.
func (promptCompleter) CompletePromptArgument(_ context.Context, prompt string, arg mcp.CompleteArgument, _ mcp.CompleteContext) (*mcp.Completion, error) {
	switch {
	case prompt == PromptGreet && arg.Name == "style":
		return complete(arg.Value, promptStyles), nil
	case prompt == PromptGreet && arg.Name == "name":
		return complete(arg.Value, namesByLang["en"]), nil
	case prompt == PromptCodeReview && arg.Name == "language":
		return complete(arg.Value, promptLanguages), nil
	}
	return &mcp.Completion{Values: []string{}}, nil
}
