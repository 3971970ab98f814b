package session

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/spyglass-mcp/spyglass/core/mcpresult"
)

// Skills is the answer to skills/list (the Skills extension, SEP-2640).
type Skills struct {
	List
	// Skills are the decoded entries; an entry that cannot be loaded is
	// kept and reported in Problems.
	Skills []mcpresult.Skill
}

// CacheHint is the ttlMs and cacheScope of the list's first page (modern
// protocol; not Present for a legacy result).
func (l List) CacheHint() mcpresult.CacheHint {
	if len(l.Pages) == 0 {
		return mcpresult.CacheHint{}
	}
	h, _ := mcpresult.DecodeCacheHint(l.Pages[0].Raw)
	return h
}

// OffersSkills reports whether the server declared the Skills extension
// (capabilities.extensions["io.modelcontextprotocol/skills"]) in the
// handshake; false before one.
func (s *Session) OffersSkills() bool {
	info := s.Info()
	return info != nil && mcpresult.OffersSkills(info.Capabilities)
}

// ListSkills sends skills/list (every page unless paginated). It returns
// entries only: no skill file is read (a host must not fetch a skill's
// files before the skill is loaded; see LoadSkill).
func (s *Session) ListSkills(ctx context.Context, opts *ListOptions) (*Skills, error) {
	l, items, err := listOf(ctx, s, "skills/list", "skills", opts, mcpresult.DecodeSkills)
	return &Skills{List: l, Skills: items}, err
}

// SkillInfo is the answer to skills/get.
type SkillInfo struct {
	Reply
	// Result is the decoded entry with its cache hint and Problems.
	Result mcpresult.SkillResult
}

// GetSkill sends skills/get for the skill whose SKILL.md is at uri.
func (s *Session) GetSkill(ctx context.Context, uri string, opts *CallOptions) (*SkillInfo, error) {
	params, _ := json.Marshal(uriParams{uri})
	rep, err := s.request(ctx, "skills/get", params, opts)
	if err != nil {
		return resultOf[SkillInfo](rep), err
	}
	return &SkillInfo{Reply: *rep, Result: mcpresult.DecodeSkillResult(rep.Raw)}, nil
}

// SkillFile is one file of a skill, read and checked against the skill's
// entry.
type SkillFile struct {
	// Read is the resources/read exchange.
	Read *ResourceContents
	// URI is the file's; Content its raw bytes (a text item's UTF-8, a
	// blob's decoded bytes).
	URI     string
	Content []byte
	// Verified is nil when the file passed every check of its entry, else
	// a *mcpresult.VerifyError naming the check that failed. Unverified
	// content must not be used as the skill's.
	Verified error
}

// LoadSkill loads a skill: it reads the entry's SKILL.md and verifies it
// against the entry (listed, size, digest, frontmatter). A file that fails
// a check is returned with the error (matching mcpresult.ErrSkillVerify),
// so a viewer can show what was sent and why it was refused.
func (s *Session) LoadSkill(ctx context.Context, skill mcpresult.Skill, opts *CallOptions) (*SkillFile, error) {
	return s.ReadSkillFile(ctx, skill, skill.URI, opts)
}

// ReadSkillFile reads one file of a loaded skill (SKILL.md or a
// supporting file listed in its entry) and verifies it. A file the entry
// does not list is not read at all: it fails the "listed" check.
func (s *Session) ReadSkillFile(ctx context.Context, skill mcpresult.Skill, uri string, opts *CallOptions) (*SkillFile, error) {
	out := &SkillFile{URI: uri}
	if _, ok := skill.File(uri); !ok && !skill.Dynamic {
		out.Verified = &mcpresult.VerifyError{Check: mcpresult.CheckListed, URI: uri}
		return out, fmt.Errorf("session: skill %s: %w", skill.URI, out.Verified)
	}
	rc, err := s.ReadResource(ctx, uri, opts)
	out.Read = rc
	if err != nil {
		return out, err
	}
	for _, c := range rc.Result.Contents {
		if c.URI != "" && c.URI != uri {
			continue
		}
		if c.Data != nil {
			out.Content = c.Data
		} else {
			out.Content = []byte(c.FullText())
		}
		break
	}
	if out.Verified = mcpresult.VerifySkillFile(skill, uri, out.Content); out.Verified != nil {
		return out, fmt.Errorf("session: skill %s: %w", skill.URI, out.Verified)
	}
	return out, nil
}
