package cmd

import "github.com/spyglass-mcp/spyglass/ui"

var _ ui.Tapper = (*guiBackend)(nil)

// PlanTap implements ui.Tapper with --tap-install's own plan (planTap):
// the window's "Tap this server in…" and the command line make the same
// change.
func (b *guiBackend) PlanTap(path, server string, undo bool) (ui.TapPlan, error) {
	p, err := planTap(path, server, "", undo)
	if err != nil {
		return ui.TapPlan{}, err
	}
	return ui.TapPlan{Diff: p.Diff, Apply: p.Apply, Done: p.Done, Run: p.Run}, nil
}
