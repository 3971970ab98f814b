package session

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/mcpresult"
	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// tsSkillsServer returns the stdio config of testdata/tssdk_skills_server.mjs:
// skills served by the official TypeScript SDK v2's Skills extension, and
// cache hints (ttlMs 42000, public) on its cacheable results. source
// "tampered" serves entries whose files do not match them.
func tsSkillsServer(t *testing.T, source string) wire.StdioConfig {
	t.Helper()
	node, _, env := tsSDKServer(t)
	dist := filepath.Dir(peers.File(t, "@modelcontextprotocol/server/dist/index.mjs"))
	script, err := filepath.Abs(filepath.Join("testdata", "tssdk_skills_server.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	env = append(env, "MCP_SERVER_SDK_SKILLS=file://"+filepath.ToSlash(filepath.Join(dist, "ext", "skills", "index.mjs")), "SKILLS_SOURCE="+source)
	return wire.StdioConfig{Command: node, Args: []string{script}, Env: env}
}

// tsSkillsHTTP starts the same server in Streamable HTTP mode on a free
// port and returns its MCP endpoint once it listens.
func tsSkillsHTTP(t *testing.T, source string) string {
	t.Helper()
	return listenHTTP(t, "the TypeScript SDK skills server", tsSkillsServer(t, source))
}

// skillsDials are the two ways to the skills server: stdio and
// Streamable HTTP.
func skillsDials(t *testing.T, source string) map[string]func(*events.Log) func(context.Context) (wire.Conn, error) {
	cfg, url := tsSkillsServer(t, source), tsSkillsHTTP(t, source)
	return map[string]func(*events.Log) func(context.Context) (wire.Conn, error){
		"stdio": func(log *events.Log) func(context.Context) (wire.Conn, error) { return stdioDial(log, cfg) },
		"http":  func(log *events.Log) func(context.Context) (wire.Conn, error) { return httpDial(log, url) },
	}
}

// sentMethods counts the requests the session sent, by method.
func sentMethods(log *events.Log) map[string]int {
	n := map[string]int{}
	for _, e := range log.Events() {
		if e.Kind == events.KindMessage && e.Type == events.MsgRequest && e.Dir == events.DirOut {
			n[e.Method]++
		}
	}
	return n
}

// TestSkillsTypeScriptSDK lists and loads skills served by the official
// TypeScript SDK v2's Skills extension, over stdio and Streamable HTTP in
// both eras: listing reads no
// skill file, loading reads SKILL.md and verifies it, a supporting file is
// read and verified, a file outside the entry is refused without a read.
func TestSkillsTypeScriptSDK(t *testing.T) {
	dials := skillsDials(t, "catalog")
	for _, tr := range []string{"stdio", "http"} {
		for _, era := range []Era{EraModern, EraLegacy} {
			t.Run(tr+"/"+string(era), func(t *testing.T) {
				testSkillsTypeScriptSDK(t, dials[tr], era)
			})
		}
	}
}

func testSkillsTypeScriptSDK(t *testing.T, dial func(*events.Log) func(context.Context) (wire.Conn, error), era Era) {
	log := events.New(nil)
	s := New(dial(log), log, &Options{Era: era})
	defer s.Close()
	ctx := t.Context()
	if err := s.Connect(ctx); err != nil {
		t.Fatalf("connect: %v", err)
	}
	if !s.OffersSkills() {
		t.Fatalf("the server's capabilities do not show the extension: %s", s.Info().Capabilities)
	}
	l, err := s.ListSkills(ctx, nil)
	if err != nil || len(l.Problems) != 0 || len(l.Skills) != 1 {
		t.Fatalf("skills/list: %v %v %+v", err, l.Problems, l.Skills)
	}
	sk := l.Skills[0]
	if sk.URI != "skill://pdf-processing/SKILL.md" || sk.Name != "pdf-processing" || len(sk.Files) != 2 {
		t.Fatalf("entry: %+v", sk)
	}
	if n := sentMethods(log)["resources/read"]; n != 0 {
		t.Fatalf("listing read %d skill files (no prefetch)", n)
	}
	if h := l.CacheHint(); era == EraModern && (h.TTL != 42*time.Second || h.Scope != "public") {
		t.Errorf("skills/list cache hint: %+v", h)
	}
	f, err := s.LoadSkill(ctx, sk, nil)
	if err != nil || f.Verified != nil {
		t.Fatalf("load: %v", err)
	}
	front, body, ok := mcpresult.SplitSkillMD(f.Content)
	if !ok || len(front) == 0 || len(body) == 0 {
		t.Fatalf("SKILL.md: %q", f.Content)
	}
	if _, err := s.ReadSkillFile(ctx, sk, "skill://pdf-processing/references/FORMS.md", nil); err != nil {
		t.Fatalf("supporting file: %v", err)
	}
	reads := sentMethods(log)["resources/read"]
	_, err = s.ReadSkillFile(ctx, sk, "skill://pdf-processing/secrets.txt", nil)
	var ve *mcpresult.VerifyError
	if !errors.As(err, &ve) || ve.Check != mcpresult.CheckListed {
		t.Fatalf("unlisted file: %v", err)
	}
	if sentMethods(log)["resources/read"] != reads {
		t.Fatal("an unlisted file was read")
	}
	g, err := s.GetSkill(ctx, sk.URI, nil)
	if err != nil || g.Result.Skill.URI != sk.URI || len(g.Result.Problems) != 0 {
		t.Fatalf("skills/get: %v %+v", err, g)
	}
	if era == EraModern && g.Result.Cache.TTL != 42*time.Second {
		t.Errorf("skills/get cache hint: %+v", g.Result.Cache)
	}
	if _, err := s.GetSkill(ctx, "skill://nothing-here/SKILL.md", nil); err == nil {
		t.Error("skills/get of an unserved skill succeeded")
	}
}

// TestSkillsVerificationFailures loads skills whose files do not match
// their entries (served through the TypeScript SDK's extension from a
// source of the test's) and expects the failing check to be named.
func TestSkillsVerificationFailures(t *testing.T) {
	log := events.New(nil)
	s := New(stdioDial(log, tsSkillsServer(t, "tampered")), log, &Options{Era: EraModern})
	defer s.Close()
	ctx := t.Context()
	l, err := s.ListSkills(ctx, nil)
	if err != nil || len(l.Skills) != 3 {
		t.Fatalf("skills/list: %v %+v", err, l)
	}
	want := map[string]string{
		"tampered-digest":      mcpresult.CheckDigest,
		"tampered-size":        mcpresult.CheckSize,
		"tampered-frontmatter": mcpresult.CheckFrontmatter,
	}
	for _, sk := range l.Skills {
		f, err := s.LoadSkill(ctx, sk, nil)
		var ve *mcpresult.VerifyError
		if !errors.As(err, &ve) || ve.Check != want[sk.Name] || f.Verified == nil || len(f.Content) == 0 {
			t.Errorf("%s: %v, want the %s check to fail", sk.Name, err, want[sk.Name])
		}
	}
}

// TestCacheHintsTypeScriptSDK reads the cache hints the TypeScript SDK v2
// puts on modern list and read results, over stdio and Streamable HTTP,
// and sees none in the legacy era.
func TestCacheHintsTypeScriptSDK(t *testing.T) {
	dials := skillsDials(t, "catalog")
	for _, key := range []string{"stdio/modern", "stdio/legacy", "http/modern", "http/legacy"} {
		tr, e, _ := strings.Cut(key, "/")
		era := Era(e)
		t.Run(key, func(t *testing.T) {
			log := events.New(nil)
			s := New(dials[tr](log), log, &Options{Era: era})
			defer s.Close()
			ctx := t.Context()
			tools, err := s.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			prompts, err := s.ListPrompts(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			res, err := s.ListResources(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			read, err := s.ReadResource(ctx, "test://note", nil)
			if err != nil {
				t.Fatal(err)
			}
			for name, h := range map[string]mcpresult.CacheHint{"tools/list": tools.CacheHint(), "prompts/list": prompts.CacheHint(), "resources/list": res.CacheHint(), "resources/read": read.Result.Cache} {
				if era == EraModern && (h.TTL != 42*time.Second || h.Scope != "public") {
					t.Errorf("%s: %+v, want 42 s public", name, h)
				}
				if era == EraLegacy && h.Present {
					t.Errorf("%s: a legacy result with a cache hint: %+v", name, h)
				}
			}
		})
	}
}
