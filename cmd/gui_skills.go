package cmd

import (
	"context"

	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/ui"
)

// noteHint keeps the cache hint of a list's first page for
// LastCacheHint.
func (c *guiConn) noteHint(method, cursor string, l session.List) {
	if cursor != "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.hints == nil {
		c.hints = map[string]ui.CacheHint{}
	}
	c.hints[method] = l.CacheHint()
}

// LastCacheHint implements ui.CacheHinter.
func (c *guiConn) LastCacheHint(method string) (ui.CacheHint, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	h, ok := c.hints[method]
	return h, ok
}

// ListSkills implements ui.SkillsConn: skills/list, every page.
func (c *guiConn) ListSkills(ctx context.Context) ([]ui.Skill, ui.CacheHint, error) {
	res, err := c.s.ListSkills(ctx, nil)
	if err != nil {
		return nil, ui.CacheHint{}, humanize(err)
	}
	return res.Skills, res.CacheHint(), nil
}

// ReadSkillFile implements ui.SkillsConn: the file is read and verified
// against the entry; a failed check comes back in Verified, not as an
// error.
func (c *guiConn) ReadSkillFile(ctx context.Context, skill ui.Skill, uri string) (ui.SkillFile, error) {
	f, err := c.s.ReadSkillFile(ctx, skill, uri, nil)
	out := ui.SkillFile{URI: uri}
	if f != nil {
		out.Content, out.Verified = f.Content, f.Verified
		if f.Read != nil {
			out.Raw = f.Read.Raw
		}
	}
	if err != nil && out.Verified == nil {
		return out, c.urlRequired(err, "load it again")
	}
	return out, nil
}
