package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/replay"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/sessiondiff"
	"github.com/spyglass-mcp/spyglass/core/wire"
	"github.com/spyglass-mcp/spyglass/ui"
)

// replayTimeout bounds a replay in the window: connecting and every
// request.
const replayTimeout = 5 * time.Minute

// entryServer is the server the entry name connects to (the catalog's, or
// the one handed over for this session).
func (b *guiBackend) entryServer(name string) (catalog.Server, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.recorded[name] != "" {
		return catalog.Server{}, fmt.Errorf("%s is a recorded session: pick a server that connects", name)
	}
	s, ok := b.cat.Get(name)
	if o, has := b.override[name]; has {
		s, ok = o, true
	}
	if !ok {
		return catalog.Server{}, fmt.Errorf("%s is not a server that can be connected to", name)
	}
	return s, nil
}

// freshConnection is a connection of its own to the entry's server s,
// its messages in the log under name; over HTTP it signs in with the
// entry's OAuth settings and the tokens the keyring keeps for the entry,
// as the entry's own connection does (the browser opens only when those
// tokens no longer do).
func (b *guiBackend) freshConnection(name, entry string, s catalog.Server) (*connection, error) {
	conn, err := newConnection(name, s, b.log, b.red)
	if err != nil {
		return nil, err
	}
	if conn.http != nil {
		log := b.log
		conn.name = entry // the key of the entry's tokens in the keyring
		conn.enableOAuth(context.Background(), b.secretStore(), b.log, b.red, oauth.Options{
			Browser:    oauth.SystemBrowser{},
			HTTPClient: &http.Client{Timeout: 30 * time.Second, Transport: &wire.Tap{Rec: log, Conn: name, Redactor: b.red}},
			OnWarning: func(w oauth.Warning) {
				log.Append(events.Event{Kind: events.KindWarning, Conn: name, Text: "sign-in: " + string(w.Code) + ": " + w.Detail})
			},
		})
		conn.name = name
	}
	return conn, nil
}

// PlanReplay implements ui.Replayer: what replaying the session of the
// entry from sends.
func (b *guiBackend) PlanReplay(from string) (ui.ReplayPlan, error) {
	plan := replay.New(b.log.EventsOf(from))
	if len(plan.Recorded) == 0 {
		return ui.ReplayPlan{}, fmt.Errorf("%s holds no requests to replay", from)
	}
	return ui.ReplayPlan{Requests: len(plan.Steps), Writes: plan.Writes}, nil
}

// StartReplay implements ui.Replayer: a session entry of its own for the
// replay of from against to (named after both, connecting to to's
// server), and the run that connects it, sends from's client→server
// requests again in recorded order (answering the server's requests as
// recorded, speaking the recorded protocol version) and compares the
// answers with the recorded ones.
func (b *guiBackend) StartReplay(from, to string) (string, func(context.Context) (ui.SessionDiffer, error), error) {
	plan := replay.New(b.log.EventsOf(from))
	if len(plan.Recorded) == 0 {
		return "", nil, fmt.Errorf("%s holds no requests to replay", from)
	}
	s, err := b.entryServer(to)
	if err != nil {
		return "", nil, err
	}
	name := b.addSessionServer(to+" · replay of "+from, s)
	run := func(ctx context.Context) (ui.SessionDiffer, error) {
		ctx, cancel := context.WithTimeout(ctx, replayTimeout)
		defer cancel()
		conn, err := b.freshConnection(name, to, s)
		if err != nil {
			return nil, err
		}
		opts := *conn.opts
		opts.Handlers = session.Handlers{Sampling: plan.Answers, Elicitation: plan.Answers, Roots: plan.Answers}
		opts.Roots = nil
		if caps := plan.Capabilities(); caps != nil {
			opts.Capabilities = caps
		}
		if v := recordedVersion(plan); v != "" {
			opts.ProtocolVersion, opts.Era = v, session.EraLegacy
			if v >= "2026-07-28" {
				opts.Era = session.EraModern
			}
		}
		sess := session.New(conn.dial, b.log, &opts)
		defer sess.Close()
		if err := conn.connect(ctx, sess); err != nil {
			return nil, humanize(err)
		}
		d := &replayDiffer{b: b, plan: plan, session: name}
		if _, err := plan.Run(ctx, sess); err != nil {
			return d, humanize(err)
		}
		return d, nil
	}
	return name, run, nil
}

// recordedVersion is the protocol version the recorded handshake settled
// on, when Spyglass speaks it ("" otherwise).
func recordedVersion(plan *replay.Plan) string {
	for _, x := range plan.Recorded {
		if x.Method != "initialize" && x.Method != "server/discover" {
			continue
		}
		var m struct {
			Result struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"result"`
		}
		if json.Unmarshal(x.Response, &m) == nil && slices.Contains(catalog.ProtocolVersions, m.Result.ProtocolVersion) {
			return m.Result.ProtocolVersion
		}
	}
	return ""
}

// replayDiffer compares a replay's session with the recording it
// replayed (ui.SessionDiffer; the names it is given are the view's).
type replayDiffer struct {
	b       *guiBackend
	plan    *replay.Plan
	session string
}

// DiffSessions implements ui.SessionDiffer.
func (d *replayDiffer) DiffSessions(_, _ string, ignore []string) (*sessiondiff.Result, error) {
	return d.plan.Compare(d.b.log.EventsOf(d.session), &sessiondiff.Options{Ignore: ignore})
}
