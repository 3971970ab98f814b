package cmd

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spyglass-mcp/spyglass/core/demo"
)

// runDemoServer runs the built-in demo MCP server: `spyglass --demo-server
// [--transport stdio|http] [--port N] [--notes-dir DIR]`. args are the
// arguments without --demo-server itself. It returns the exit code.
func runDemoServer(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("spyglass --demo-server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	transport := fs.String("transport", "stdio", "transport: stdio or http")
	port := fs.Int("port", 0, "port on 127.0.0.1 for --transport http (0 picks a free one)")
	notesDir := fs.String("notes-dir", "", "folder of the notes file (default $"+demo.NotesEnv+", else $XDG_DATA_HOME/spyglass)")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "spyglass --demo-server: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *port < 0 || *port > 65535 {
		fmt.Fprintf(stderr, "spyglass --demo-server: --port %d is not a port number\n", *port)
		return 2
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := demo.New(&demo.Options{NotesDir: *notesDir})

	switch *transport {
	case "stdio":
		if err := demo.ServeStdio(ctx, srv, stdin, stdout, stderr); err != nil {
			fmt.Fprintf(stderr, "spyglass --demo-server: %v\n", err)
			return 1
		}
		return 0
	case "http":
		err := demo.ServeHTTP(ctx, srv, *port, func(url string) {
			fmt.Fprintf(stderr, "spyglass demo server listening on %s\n", url)
			fmt.Fprintln(stdout, url)
		})
		if err != nil {
			fmt.Fprintf(stderr, "spyglass --demo-server: %v\n", err)
			return 1
		}
		return 0
	default:
		fmt.Fprintf(stderr, "spyglass --demo-server: --transport must be stdio or http, not %q\n", *transport)
		return 2
	}
}
