package tap

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
	"github.com/spyglass-mcp/spyglass/core/wire/fault"
)

// TestMain lets the test binary stand in for `spyglass --tap`: started
// with TAP_TEST_MAIN=1 it runs a stdio tap wired the way cmd/tap.go wires
// it (NewRecord, RunStdio, Finish), so that real clients (which start
// their server as a command) can be put through it. With
// TAP_TEST_MAIN=relay it is the bare relay BenchmarkTapEcho measures the
// tap against (relayMain).
func TestMain(m *testing.M) {
	switch os.Getenv("TAP_TEST_MAIN") {
	case "1":
		os.Exit(tapMain(os.Args[1:]))
	case "relay":
		os.Exit(relayMain(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// tapMain is `spyglass --tap [--trace FILE] [--fault SPEC] -- COMMAND...`.
func tapMain(args []string) int {
	fs := flag.NewFlagSet("tap", flag.ContinueOnError)
	trace := fs.String("trace", "", "")
	spec := fs.String("fault", "", "")
	feed := fs.String("feed", "", "") // the app's socket
	if err := fs.Parse(args); err != nil || fs.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "tap: bad arguments", args)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if p := os.Getenv("TAP_CPUPROFILE"); p != "" { // where the tap's CPU goes (see BenchmarkTapEcho)
		if f, err := os.Create(p); err == nil {
			pprof.StartCPUProfile(f)
			defer pprof.StopCPUProfile()
		}
	}
	command := fs.Args()
	var rec *Record
	o := StdioOptions{
		Server: wire.StdioConfig{Conn: "tapped", Command: command[0], Args: command[1:]},
		Stdin:  os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
	}
	if *trace != "" {
		rec = NewRecord(*trace, "tap test", events.ConnInfo{Conn: "tapped", Transport: "stdio"}, func(err error) {
			fmt.Fprintf(os.Stderr, "spyglass tap: the trace is not being written (%v)\n", err)
		})
		o.Rec = rec.Log
	}
	if *feed != "" {
		if rec == nil {
			rec = NewRecord("", "tap test", events.ConnInfo{Conn: "tapped", Transport: "stdio"}, nil)
			o.Rec = rec.Log
		}
		f, err := StartFeed(*feed, rec.Log, events.ConnInfo{Conn: "tapped", Transport: "stdio"}, func(err error) {
			fmt.Fprintf(os.Stderr, "spyglass tap: the live feed stopped (%v)\n", err)
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		defer f.Close()
	}
	if *spec != "" {
		s, err := fault.Parse(*spec)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		o.Fault = &s
	}
	exit, err := RunStdio(ctx, o)
	if rec != nil {
		rec.Finish()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 126
	}
	if exit.Signal != 0 {
		return 128 + int(exit.Signal)
	}
	return exit.Code
}

// messages returns the Raw bytes of the message events of evs in dir,
// each followed by a newline: what travelled that way on a stdio pipe.
func messages(evs []events.Event, dir events.Direction) []byte {
	var b bytes.Buffer
	for _, e := range evs {
		if e.Kind == events.KindMessage && e.Dir == dir && !strings.HasPrefix(e.Text, BatchElement) {
			b.Write(e.Raw)
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// kinds counts the events of each kind (for failure messages).
func kinds(evs []events.Event) string {
	n := map[events.Kind]int{}
	for _, e := range evs {
		n[e.Kind]++
	}
	return fmt.Sprint(n)
}

// invalid returns the texts of the invalid events.
func invalid(evs []events.Event) []string {
	var out []string
	for _, e := range evs {
		if e.Kind == events.KindInvalid {
			out = append(out, strings.TrimSpace(e.Text))
		}
	}
	return out
}
