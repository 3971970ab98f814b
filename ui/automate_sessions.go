//go:build screenshots

package ui

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// Screenshot helpers for the sessions-as-files shots (see automate.go).

// LastSeq is the sequence number of the newest event.
func (w *Window) LastSeq() uint64 {
	var last uint64
	for {
		evs, err := w.be.Events().After(last, 1000)
		if err != nil || len(evs) == 0 {
			return last
		}
		last = evs[len(evs)-1].Seq
	}
}

// SaveTrace writes the events of server after seq as a trace file at
// path.
func (w *Window) SaveTrace(server string, after uint64, path string) error {
	var evs []events.Event
	for {
		batch, err := w.be.Events().After(after, 1000)
		if err != nil {
			return err
		}
		if len(batch) == 0 {
			break
		}
		for _, e := range batch {
			if e.Server == server {
				evs = append(evs, e.Event)
			}
		}
		after = batch[len(batch)-1].Seq
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	meta := events.TraceMeta{App: "spyglass", Created: time.Now()}
	Sync(func() {
		if s := w.server(server); s != nil {
			t := s.cfg.Transport
			if t == "" {
				t = "stdio"
			}
			meta.Conns = []events.ConnInfo{{Conn: server, Transport: t, Target: s.cfg.Summary()}}
		}
	})
	if err := events.WriteTrace(f, meta, evs); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Disconnect disconnects the named server.
func (w *Window) Disconnect(name string) {
	Sync(func() {
		if s := w.server(name); s != nil {
			s.disconnect()
		}
	})
}

// Select selects the named server.
func (w *Window) Select(name string) {
	Sync(func() {
		if s := w.server(name); s != nil {
			w.selectServer(s)
		}
	})
}

// RunCollectionWait runs the collection file at path as File → Run
// collection… does and waits until its checklist is filled in.
func (w *Window) RunCollectionWait(path string, timeout time.Duration) error {
	var v *collectionView
	Sync(func() { v = w.runCollection(path) })
	if v == nil {
		return fmt.Errorf("this build cannot run collections")
	}
	return poll(timeout, "the collection run", func() bool { return !strings.HasPrefix(v.status.Text, "Running") })
}

// ProtocolMatrixWait opens the protocol matrix of server's latest call
// and waits until it is filled in.
func (w *Window) ProtocolMatrixWait(server string, timeout time.Duration) error {
	var v *matrixView
	Sync(func() { v = w.protocolMatrix(server, 0) })
	if v == nil {
		return fmt.Errorf("this build has no protocol matrix")
	}
	return poll(timeout, "the protocol matrix", func() bool { return !strings.HasPrefix(v.status.Text, "Running") })
}
