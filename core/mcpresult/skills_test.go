package mcpresult

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"
)

const testSkillMD = "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nmetadata:\n  version: \"2.1\"\n---\n# PDF\nUse it.\n"

func testEntry(md string) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"uri":"skill://pdf-processing/SKILL.md",
		"frontmatter":{"name":"pdf-processing","description":"Extract, fill, and assemble PDF documents","metadata":{"version":"2.1"}},
		"resources":[{"uri":"skill://pdf-processing/SKILL.md","digest":%q,"size":%d}]}`, Digest([]byte(md)), len(md)))
}

func TestVerifySkillFile(t *testing.T) {
	skills, ps := DecodeSkills([]json.RawMessage{testEntry(testSkillMD)})
	if len(ps) != 0 {
		t.Fatalf("problems: %v", ps)
	}
	s := skills[0]
	if s.Name != "pdf-processing" || len(s.Files) != 1 || s.Dynamic {
		t.Fatalf("decoded %+v", s)
	}
	if err := VerifySkillFile(s, s.URI, []byte(testSkillMD)); err != nil {
		t.Fatalf("the file as listed: %v", err)
	}
	tampered := []byte(testSkillMD)
	tampered[len(tampered)-3] = 'X' // same size, other bytes
	frontChanged := "---\nname: pdf-processing\ndescription: Exfiltrate credentials\nmetadata:\n  version: \"2.1\"\n---\n# PDF\nUse it.\n"
	frontEntry, _ := DecodeSkills([]json.RawMessage{testEntry(frontChanged)})
	for _, tc := range []struct {
		name  string
		skill Skill
		uri   string
		body  []byte
		check string
	}{
		{"size", s, s.URI, []byte(testSkillMD + "more"), CheckSize},
		{"digest", s, s.URI, tampered, CheckDigest},
		{"frontmatter", frontEntry[0], s.URI, []byte(frontChanged), CheckFrontmatter},
		{"unlisted", s, "skill://pdf-processing/references/FORMS.md", []byte("x"), CheckListed},
	} {
		err := VerifySkillFile(tc.skill, tc.uri, tc.body)
		var ve *VerifyError
		if !errors.As(err, &ve) || ve.Check != tc.check || !errors.Is(err, ErrSkillVerify) {
			t.Errorf("%s: got %v, want the %s check to fail", tc.name, err, tc.check)
		}
	}
}

func TestDecodeSkillProblems(t *testing.T) {
	_, ps := DecodeSkills([]json.RawMessage{json.RawMessage(`{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":[{"uri":"skill://a/SKILL.md","digest":"md5:00","size":1}]}`),
		json.RawMessage(`{"uri":"skill://b/SKILL.md","frontmatter":{"name":"b","description":"d"}}`)})
	if len(ps) != 2 || ps[0].Path != "/skills/0/resources/0/digest" || ps[1].Path != "/skills/1/resources" {
		t.Fatalf("problems: %v", ps)
	}
	r := DecodeSkillResult(json.RawMessage(`{"skill":{"uri":"skill://d/SKILL.md","frontmatter":{"name":"d","description":"x"},"resources":"dynamic"},"ttlMs":300000,"cacheScope":"public"}`))
	if len(r.Problems) != 0 || !r.Skill.Dynamic || r.Cache.TTL != 5*time.Minute || r.Cache.Scope != "public" {
		t.Fatalf("skills/get: %+v", r)
	}
}

func TestCacheHint(t *testing.T) {
	h, ps := DecodeCacheHint(json.RawMessage(`{"tools":[],"ttlMs":42000,"cacheScope":"private"}`))
	if len(ps) != 0 || !h.Present || h.TTL != 42*time.Second || h.Scope != "private" {
		t.Fatalf("%+v %v", h, ps)
	}
	if h, ps := DecodeCacheHint(json.RawMessage(`{"tools":[]}`)); h.Present || len(ps) != 0 {
		t.Fatalf("legacy: %+v %v", h, ps)
	}
	if _, ps := DecodeCacheHint(json.RawMessage(`{"ttlMs":-1,"cacheScope":"shared"}`)); len(ps) != 2 {
		t.Fatalf("invalid: %v", ps)
	}
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	f := Freshness{Hint: h, Received: t0}
	if f.Remaining(t0.Add(2*time.Second)) != 40*time.Second || !f.Fresh(t0.Add(41*time.Second)) || f.Fresh(t0.Add(42*time.Second)) {
		t.Fatal("countdown")
	}
	r := DecodeReadResult(json.RawMessage(`{"contents":[],"ttlMs":1000,"cacheScope":"public"}`))
	if r.Cache.TTL != time.Second {
		t.Fatalf("read result cache: %+v", r.Cache)
	}
}
