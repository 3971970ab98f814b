package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spyglass-mcp/spyglass/core/mcpresult"
	"github.com/spyglass-mcp/spyglass/core/session"
)

// conformanceSkills lists the skills of a server that declares the Skills
// extension and, with load, loads each one as the window's Load does: its
// SKILL.md is read and verified against the entry, and only a skill that
// passed has its supporting files read (each verified in turn). Without
// load (sep-2640-client-no-prefetch) nothing is read: listing is not
// loading.
func conformanceSkills(ctx context.Context, s *session.Session, load bool, out io.Writer) error {
	l, err := s.ListSkills(ctx, nil)
	if err != nil {
		return fmt.Errorf("skills/list: %w", err)
	}
	fmt.Fprintf(out, "skills/list → %d skills\n", len(l.Skills))
	if !load {
		return nil
	}
	for _, sk := range l.Skills {
		if _, err := s.LoadSkill(ctx, sk, nil); err != nil {
			if errors.Is(err, mcpresult.ErrSkillVerify) {
				fmt.Fprintf(out, "skill %s refused: %v\n", sk.URI, err)
				continue
			}
			return fmt.Errorf("load %s: %w", sk.URI, err)
		}
		fmt.Fprintf(out, "skill %s loaded and verified\n", sk.URI)
		for _, f := range sk.Files {
			if f.URI == sk.URI {
				continue
			}
			if _, err := s.ReadSkillFile(ctx, sk, f.URI, nil); err != nil {
				fmt.Fprintf(out, "skill file %s: %v\n", f.URI, err)
			}
		}
	}
	return nil
}
