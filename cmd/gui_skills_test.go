package cmd

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/ui"
)

// newSkillsHarness opens the window on a catalog whose "skills" server is
// core/session/testdata/tssdk_skills_server.mjs: skills served by the
// official TypeScript SDK v2's Skills extension, cache hints (ttlMs 42000,
// public) on its lists and reads. source "tampered" serves skills whose
// files do not match their entries.
func newSkillsHarness(t *testing.T, era, source string) *guiHarness {
	t.Helper()
	node := testpeers.Node(t)
	dist := filepath.Dir(testpeers.File(t, "@modelcontextprotocol/server/dist/index.mjs"))
	script, err := filepath.Abs(filepath.Join("..", "core", "session", "testdata", "tssdk_skills_server.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"skills": map[string]any{"command": node, "args": []string{script}, "protocolEra": era, "env": map[string]string{
			"MCP_SERVER_SDK":        "file://" + filepath.Join(dist, "index.mjs"),
			"MCP_SERVER_SDK_STDIO":  "file://" + filepath.Join(dist, "stdio.mjs"),
			"MCP_SERVER_SDK_SKILLS": "file://" + filepath.Join(dist, "ext", "skills", "index.mjs"),
			"SKILLS_SOURCE":         source,
		}},
	}})
	return newCatalogHarness(t, doc)
}

// sentCount counts the requests of method the window's session sent.
func (h *guiHarness) sentCount(method string) int {
	n := 0
	for _, e := range h.be.log.Events() {
		if e.Kind == events.KindMessage && e.Dir == events.DirOut && e.Type == events.MsgRequest && e.Method == method {
			n++
		}
	}
	return n
}

// TestGUISkills drives the Skills screen against the TypeScript SDK v2's
// Skills extension: the list shows the skill without reading any file,
// selecting it shows the entry without reading, Load reads SKILL.md and
// shows every check passed with the frontmatter and body, Read reads a
// supporting file; the Tools list shows the cache hint's countdown.
func TestGUISkills(t *testing.T) {
	h := newSkillsHarness(t, "modern", "catalog")
	h.connectWithTools()
	h.waitFor("the tools list's cache hint", func() bool { return h.hasText("ttl 42 s · public") })
	h.openTab("Skills")
	h.waitFor("the skills list", func() bool { return h.hasText("1 skill · files are read only on Load") })
	ui.Sync(func() {
		if !h.selectRow("pdf-processing") {
			t.Fatal("could not select pdf-processing")
		}
	})
	h.waitFor("the entry", func() bool { return h.hasText("Frontmatter (from the entry)") && h.hasText("Files: 2") })
	if n := h.sentCount("resources/read"); n != 0 {
		t.Fatalf("listing and selecting read %d files", n)
	}
	h.tap("Load skill")
	h.waitFor("the verified skill", func() bool {
		return h.hasText("Verified against the entry") && h.hasText("✓ digest") && h.hasText("✓ frontmatter") && h.hasText("Frontmatter (from SKILL.md)")
	})
	if n := h.sentCount("resources/read"); n != 1 {
		t.Fatalf("loading read %d files, want SKILL.md only", n)
	}
	h.tap("Read")
	h.waitFor("the supporting file", func() bool { return h.hasText("Fill the fields in order.") })
}

// TestGUISkillsTampered: a SKILL.md whose digest does not match its entry
// is shown as failed, naming the digest check; one whose frontmatter
// differs names the frontmatter check.
func TestGUISkillsTampered(t *testing.T) {
	h := newSkillsHarness(t, "modern", "tampered")
	h.connectWithTools()
	h.openTab("Skills")
	h.waitFor("the skills list", func() bool { return h.hasText("3 skills · ") })
	for name, check := range map[string]string{"tampered-digest": "✗ digest", "tampered-frontmatter": "✗ frontmatter", "tampered-size": "✗ size"} {
		ui.Sync(func() {
			if !h.selectRow(name) {
				t.Fatalf("could not select %s", name)
			}
		})
		h.tap("Load skill")
		h.waitFor(check, func() bool { return h.hasText("Failed verification") && h.hasText(check) })
	}
}

// TestGUISkillsNotOffered: a server without the extension (the demo) gets
// a Skills screen that says so, and no skills/list is sent.
func TestGUISkillsNotOffered(t *testing.T) {
	h := newGUIHarness(t)
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	h.openTab("Skills")
	h.waitFor("the plain words", func() bool { return h.hasText("This server does not offer skills") })
	if n := h.sentCount("skills/list"); n != 0 {
		t.Fatalf("sent %d skills/list to a server without the extension", n)
	}
}

// TestGUIListenLaneAndChangedWhileFresh: against the TypeScript SDK v2 in
// the modern era the inspector's listen lane shows the window's
// subscriptions/listen acknowledged; the add-tool tool changes the tool
// list while the list is still fresh (ttl 42 s), so the list_changed that
// arrives on the stream flags the Tools list "changed while fresh".
func TestGUIListenLaneAndChangedWhileFresh(t *testing.T) {
	h := newSkillsHarness(t, "modern", "catalog")
	h.connectWithTools()
	h.waitFor("the listen lane", func() bool { return h.hasText("Listen streams · 1 · now acknowledged") })
	h.waitFor("fresh", func() bool { return h.hasText("ttl 42 s · public") })
	ui.Sync(func() {
		if !h.selectRow("add-tool") {
			t.Fatal("could not select add-tool")
		}
	})
	h.tap("Run")
	h.waitFor("changed while fresh", func() bool {
		return h.find(func(o fyne.CanvasObject) bool {
			l, ok := o.(*widget.Label)
			return ok && strings.HasPrefix(l.Text, "ttl 42 s, ") && strings.HasSuffix(l.Text, " left · public")
		}) != nil
	})
}
