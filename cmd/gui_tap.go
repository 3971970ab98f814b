package cmd

import "github.com/spyglass-mcp/spyglass/ui"

var _ ui.Tapper = (*guiBackend)(nil)

// PlanTap implements ui.Tapper with --tap-install's own plan (planTap):
// the window's "Tap this server in…" and the command line make the same
// change.
func (b *guiBackend) PlanTap(path, server string, undo bool) (string, func() error, string, error) {
	p, err := planTap(path, server, "", undo)
	if err != nil {
		return "", nil, "", err
	}
	return p.Diff, p.Apply, p.Done, nil
}
