package catalog

import (
	"os"
)

// DemoServerName is the seeded entry for Spyglass's built-in demo server.
const DemoServerName = "spyglass-demo"

// SelfCommand and DemoServerArg make up the demo entry's command line. The
// command "spyglass" with first argument "--demo-server" is not looked up on
// PATH: ResolveCommand replaces it with the running binary's own
// executable when connecting, so the entry keeps working when the binary is
// moved or run through `go run`, and no temporary build path is ever
// written into a file.
const (
	SelfCommand   = "spyglass"
	DemoServerArg = "--demo-server"
)

// Seed is the content of a new writable catalog, the same whichever
// surface (desktop app, --cli, --import) creates it first: the built-in
// demo server plus the official inspector's two npx sample servers.
const Seed = `{
  "mcpServers": {
    "spyglass-demo": {
      "type": "stdio",
      "command": "spyglass",
      "args": ["--demo-server"]
    },
    "filesystem-server-default": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]
    },
    "everything-server-default": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-everything"]
    }
  }
}
`

// IsSelf reports whether a stdio command line names Spyglass's own demo
// server ("spyglass --demo-server ...").
func IsSelf(command string, args []string) bool {
	return command == SelfCommand && len(args) > 0 && args[0] == DemoServerArg
}

// ResolveCommand returns the command to spawn for a stdio server: the
// running executable (os.Executable) in place of "spyglass" for the demo
// server's command line, the command unchanged otherwise.
func ResolveCommand(command string, args []string) (string, error) {
	return resolveCommand(command, args, os.Executable)
}

func resolveCommand(command string, args []string, executable func() (string, error)) (string, error) {
	if !IsSelf(command, args) {
		return command, nil
	}
	exe, err := executable()
	if err != nil {
		return "", err
	}
	return exe, nil
}
