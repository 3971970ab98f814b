package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/collection"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/sessiondiff"
	"github.com/spyglass-mcp/spyglass/ui"
)

// matrixTimeout bounds one version's connection and call.
const matrixTimeout = 30 * time.Second

// RunMatrix implements ui.ProtocolMatrixer: the request seq of server (0:
// its latest tool, prompt or resource call) sent again on a fresh
// connection pinned to each protocol version Spyglass speaks, one after
// the other, each result compared with the one of the version before it
// that answered (after the default ignore list), so the matrix shows
// where the result changes. Each connection's messages are in the log under
// "SERVER @ VERSION".
func (b *guiBackend) RunMatrix(ctx context.Context, server string, seq uint64) (*ui.Matrix, error) {
	x, err := b.findCall(server, seq)
	if err != nil {
		return nil, err
	}
	call, err := collection.FromExchange(x)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	s, ok := b.cat.Get(server)
	if o, has := b.override[server]; has {
		s, ok = o, true
	}
	b.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("%s is not a server that can be connected to", server)
	}
	ig, err := sessiondiff.ParseIgnore(sessiondiff.DefaultIgnore)
	if err != nil {
		return nil, err
	}
	m := &ui.Matrix{Label: call.Label()}
	var prev json.RawMessage
	prevVersion := ""
	for _, v := range session.Versions {
		cell := ui.MatrixCell{Version: v}
		res, negotiated, took, err := b.matrixCall(ctx, server+" @ "+v, server, s, v, call)
		cell.Negotiated, cell.Duration = negotiated, took
		switch {
		case err != nil:
			cell.Err = err.Error()
		case prev != nil:
			cell.Against = prevVersion
			cell.Changes, err = sessiondiff.Messages(matrixWrap(prev), matrixWrap(res), ig)
			if err != nil {
				cell.Err = err.Error()
			}
		}
		if err == nil {
			prev, prevVersion = res, v
		}
		m.Cells = append(m.Cells, cell)
	}
	return m, nil
}

// matrixWrap puts a result where the ignore list's pointers expect it.
func matrixWrap(r json.RawMessage) json.RawMessage {
	b, _ := json.Marshal(map[string]json.RawMessage{"result": r})
	return b
}

// matrixCall connects to the entry's server s pinned to version (signing
// in with the entry's OAuth tokens when it asks), sends call and closes.
func (b *guiBackend) matrixCall(ctx context.Context, name, entry string, s catalog.Server, version string, call collection.Call) (json.RawMessage, string, time.Duration, error) {
	conn, err := b.freshConnection(name, entry, s)
	if err != nil {
		return nil, "", 0, err
	}
	opts := *conn.opts
	opts.ProtocolVersion = version
	opts.Roots = nil
	sess := session.New(conn.dial, b.log, &opts)
	defer sess.Close()
	ctx, cancel := context.WithTimeout(ctx, matrixTimeout)
	defer cancel()
	if err := conn.connect(ctx, sess); err != nil {
		return nil, "", 0, humanize(err)
	}
	negotiated := ""
	if in := sess.Info(); in != nil {
		negotiated = in.ProtocolVersion
	}
	reply, err := sess.Call(ctx, call.Method, call.Params, nil)
	var rpc *session.RPCError
	switch {
	case errors.As(err, &rpc):
		return nil, negotiated, 0, fmt.Errorf("the server answered with error %d: %s", rpc.Code, rpc.Message)
	case err != nil:
		return nil, negotiated, 0, humanize(err)
	}
	return reply.Raw, negotiated, reply.Duration, nil
}
