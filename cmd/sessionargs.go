package cmd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spyglass-mcp/spyglass/core/sessiondiff"
)

// The --cli flags each sessions-as-files mode also takes.
var sessionModeFlags = map[string][]string{
	"--replay": {"--format", "--trace", "--verbose", "--timeout", "--ignore", "--yes", "--har", "--browser", "--relogin", "--no-revoke", "--fault"},
	"--run": {"--format", "--trace", "--verbose", "--timeout", "--ignore", "--har", "--browser", "--relogin", "--no-revoke", "--fault",
		"--sampling", "--elicitation", "--root", "--metadata"},
}

// checkIgnore checks one --ignore value.
func checkIgnore(v string) error {
	if _, err := sessiondiff.ParseIgnore([]string{v}); err != nil {
		return fmt.Errorf("--ignore %s: %w", v, err)
	}
	return nil
}

// checkSessionFile checks the flags of --replay and --run, which connect
// like --cli (the same server flags) but send what a file says.
func (inv *Invocation) checkSessionFile(mode string) error {
	for _, f := range inv.givenIn(groupCLI) {
		if !slices.Contains(sessionModeFlags[mode], f) {
			return fmt.Errorf("%s cannot be combined with %s, which sends the requests the file holds (it takes %s)", f, mode, strings.Join(sessionModeFlags[mode], ", "))
		}
	}
	if inv.given["--no-revoke"] && !inv.given["--relogin"] {
		return fmt.Errorf("--no-revoke only changes what --relogin does; add --relogin, or drop --no-revoke")
	}
	if inv.Format == "" {
		inv.Format = "text"
	}
	if inv.Format == "junit" && mode != "--run" {
		return fmt.Errorf("--format junit is for --run; %s prints text or json", mode)
	}
	if inv.Sampling == "" {
		inv.Sampling = "decline"
	}
	if inv.Elicitation == "" {
		inv.Elicitation = "decline"
	}
	inv.Yes = inv.given["--yes"]
	return nil
}

// checkSessionFlags refuses the flags of --replay and --run in another
// mode.
func (inv *Invocation) checkSessionFlags(mode string) error {
	for _, f := range []string{"--ignore", "--yes"} {
		if inv.given[f] {
			return fmt.Errorf("%s works with --replay and --run (and --ignore with --diff), not with %s", f, mode)
		}
	}
	if inv.Format == "junit" {
		return fmt.Errorf("--format junit is for --run; %s prints text or json", mode)
	}
	return nil
}
