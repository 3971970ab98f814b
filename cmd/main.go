package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
)

// Main runs Spyglass with the given arguments (without the program name)
// and returns the process exit code.
func Main(args []string) int {
	return run(args, os.Stdin, os.Stdout, os.Stderr)
}

// run picks the mode and runs it.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// The two server-like modes take their own small flag sets.
	for i, a := range args {
		if a == "--" {
			break
		}
		switch a {
		case "--demo-server":
			rest := append(append([]string{}, args[:i]...), args[i+1:]...)
			return runDemoServer(rest, stdin, stdout, stderr)
		case "--conformance-client":
			rest := append(append([]string{}, args[:i]...), args[i+1:]...)
			return runConformanceClient(rest, stdout, stderr)
		case "--diff":
			return runDiff(args, stdout, stderr)
		case "--tap":
			rest := append(append([]string{}, args[:i]...), args[i+1:]...)
			return runTap(rest, stdin, stdout, stderr)
		case "--tap-install", "--tap-uninstall":
			return runTapInstall(args, stdin, stdout, stderr)
		}
	}
	inv, err := ParseArgs(args)
	if err != nil {
		if wantsJSON(args) {
			b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": err.Error()}})
			fmt.Fprintf(stdout, "%s\n", b)
		}
		fmt.Fprintf(stderr, "spyglass: %v\n(run spyglass --help for the flags)\n", err)
		return exitUsage
	}
	switch inv.Mode {
	case ModeHelp:
		fmt.Fprint(stdout, Usage())
		return exitOK
	case ModeVersion:
		fmt.Fprintln(stdout, "spyglass", version)
		return exitOK
	case ModeCLI:
		return runCLI(inv, stdout, stderr)
	case ModeImport:
		return runImport(inv, stdout, stderr)
	case ModeReplay:
		return runReplay(inv, stdout, stderr)
	case ModeRun:
		return runCollection(inv, stdout, stderr)
	}
	if why := noDisplay(runtime.GOOS, os.Getenv); why != "" {
		fmt.Fprintf(stderr, "spyglass: %s\n", why)
		return exitConnect
	}
	return runGUI(inv, args, stderr)
}

// wantsJSON reports whether the command line asks for --format json (read
// directly, for the errors that stop the parser itself).
func wantsJSON(args []string) bool {
	for i, a := range args {
		if a == "--" {
			return false
		}
		if a == "--format=json" || (a == "--format" && i+1 < len(args) && args[i+1] == "json") {
			return true
		}
	}
	return false
}

// noDisplay explains why the desktop app cannot open a window here, or
// returns "" when it can. Without it, the GL driver panics.
func noDisplay(goos string, getenv func(string) string) string {
	switch goos {
	case "linux", "freebsd", "openbsd", "netbsd", "dragonfly":
	default:
		return ""
	}
	if getenv("DISPLAY") != "" || getenv("WAYLAND_DISPLAY") != "" {
		return ""
	}
	return "no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is set). " +
		"Run it in a desktop session or under xvfb-run, or use the command line: spyglass --cli --method tools/list ..."
}
