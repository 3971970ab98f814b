package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/replay"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/sessiondiff"
)

// runReplay sends a trace's client→server requests to the server again,
// in recorded order, answering the server's requests as recorded, and
// compares every response with the recorded one: exit 0 when all match
// (after the ignore list), 1 when something differs, 3 when it cannot
// connect, 2 for a bad trace or flags. A trace holding several servers'
// sessions is replayed one server at a time: --server NAME picks the
// trace's session of that name and the catalog (or --config) server of
// that name to send it to.
func runReplay(inv *Invocation, stdout, stderr io.Writer) int {
	t, err := openTrace(inv.ReplayFile, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "spyglass: %v\n", err)
		return exitUsage
	}
	plan := replay.New(t.Events)
	if len(plan.Conns) > 1 {
		names := strings.Join(plan.Conns, ", ")
		switch {
		case inv.Server == "":
			fmt.Fprintf(stderr, "spyglass: %s holds the sessions of %d servers (%s); a replay sends one server's requests: pick one with --server NAME (it is replayed against the server of that name in the catalog or --config file)\n",
				inv.ReplayFile, len(plan.Conns), names)
			return exitUsage
		case !slices.Contains(plan.Conns, inv.Server):
			fmt.Fprintf(stderr, "spyglass: %s holds no session of %q; its servers are %s: pick one of them with --server NAME\n",
				inv.ReplayFile, inv.Server, names)
			return exitUsage
		}
		plan = replay.NewConn(t.Events, inv.Server)
		t.Meta.Conns = slices.DeleteFunc(slices.Clone(t.Meta.Conns), func(c events.ConnInfo) bool { return c.Conn != inv.Server })
	}
	if len(plan.Recorded) == 0 {
		fmt.Fprintf(stderr, "spyglass: %s holds no requests to replay\n", inv.ReplayFile)
		return exitUsage
	}
	if len(plan.Writes) > 0 && !inv.Yes {
		fmt.Fprintf(stderr, "spyglass: the trace calls tools that may change something (no readOnlyHint): %s; add --yes to replay them\n",
			strings.Join(plan.Writes, ", "))
		return exitUsage
	}
	pinRecordedProtocol(inv, t.Meta)
	r := &cliRun{inv: inv, stdout: stdout, stderr: stderr}
	r.configure = func(opts *session.Options) {
		opts.Handlers = session.Handlers{Sampling: plan.Answers, Elicitation: plan.Answers, Roots: plan.Answers}
		if caps := plan.Capabilities(); caps != nil {
			opts.Capabilities = caps
		}
	}
	r.then = func(ctx context.Context) int {
		r.setWaiting(fmt.Sprintf("replaying %d requests", len(plan.Steps)))
		if _, err := plan.Run(ctx, r.sess); err != nil {
			return r.fail(err)
		}
		res, err := plan.Compare(r.log.Events(), &sessiondiff.Options{Ignore: ignoreList(inv.Ignore)})
		if err != nil {
			return r.usage(err)
		}
		if n := plan.Answers.Missing(); n > 0 {
			fmt.Fprintf(stderr, "warning: the server asked %d more questions (sampling, elicitation, roots) than the trace answered; they were answered with an error\n", n)
		}
		if inv.Format == "json" {
			err = writeDiffJSON(stdout, res, inv.ReplayFile, "replay")
		} else {
			err = writeDiffText(stdout, res, inv.ReplayFile, "the replay")
		}
		if err != nil {
			return exitInternal
		}
		if res.Equal() {
			return exitSame
		}
		return exitDiffers
	}
	return r.start()
}

// openTrace reads a trace to act on. A damaged trace is used as far as it
// is valid, with a warning that says where it stops.
func openTrace(path string, stderr io.Writer) (*events.Trace, error) {
	t, err := readTraceFile(path)
	if err == nil {
		return t, nil
	}
	tr, derr := decodeTracePath(path)
	var te *events.TraceError
	if errors.As(derr, &te) && tr != nil {
		fmt.Fprintf(stderr, "warning: %v; using the %d events before it\n", err, len(tr.Events))
		return tr, nil
	}
	return nil, err
}

// pinRecordedProtocol makes a replay speak the protocol version the trace
// was recorded with, unless the command line chooses one: the same
// requests under another version are another conversation.
func pinRecordedProtocol(inv *Invocation, meta events.TraceMeta) {
	if inv.ProtocolVersion != "" || inv.ProtocolEra != "" || len(meta.Conns) != 1 {
		return
	}
	v := meta.Conns[0].ProtocolVersion
	if !slices.Contains(catalog.ProtocolVersions, v) {
		return
	}
	inv.ProtocolVersion, inv.ProtocolEra = v, "legacy"
	if v >= "2026-07-28" {
		inv.ProtocolEra = "modern"
	}
}
