package cmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spyglass-mcp/spyglass/core/collection"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/sessiondiff"
)

// DefaultCollection implements ui.CollectionStore: the file a server's
// saved calls go to unless the user picks another, under
// collection.DefaultDir.
func (b *guiBackend) DefaultCollection(server string) string {
	name := strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\:*?"<>| `, r) {
			return '-'
		}
		return r
	}, server)
	return filepath.Join(collection.DefaultDir(), name+".json")
}

// SaveCall implements ui.CollectionStore: the request seq of server (0:
// its latest tools/call, prompts/get or resources/read), as the log
// holds it, is appended to the collection file at path (created when
// missing, for that server), expecting its recorded outcome.
func (b *guiBackend) SaveCall(server string, seq uint64, path string) (string, error) {
	if path == "" {
		return "", errors.New("give the collection file's path")
	}
	found, err := b.findCall(server, seq)
	if err != nil {
		return "", err
	}
	call, err := collection.FromExchange(found)
	if err != nil {
		return "", err
	}
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if err := collection.Append(path, name, &collection.Server{Name: server}, call); err != nil {
		return "", err
	}
	return call.Label(), nil
}

// findCall is the request seq of server (0: its latest tools/call,
// prompts/get or resources/read) with its answer, as the log holds them:
// the request looked up by its seq, or walked back to from the newest
// event, and its answer by the request's pair.
func (b *guiBackend) findCall(server string, seq uint64) (*sessiondiff.Exchange, error) {
	var req events.Event
	ok := false
	if seq != 0 {
		req, ok = b.log.Get(seq)
		ok = ok && req.Conn == server
	} else {
		for e := range b.log.ScanBackward(server) {
			if e.Dir == events.DirOut && e.Kind == events.KindMessage && e.Type == events.MsgRequest && len(e.Raw) > 0 &&
				(e.Method == "tools/call" || e.Method == "prompts/get" || e.Method == "resources/read") {
				req, ok = e, true
				break
			}
		}
	}
	var found *sessiondiff.Exchange
	if ok && req.Dir == events.DirOut {
		evs := []events.Event{req}
		if resp, has := b.log.Get(req.Pair); has && req.Pair != 0 {
			evs = append(evs, resp)
		}
		if xs := sessiondiff.Exchanges(evs); len(xs) == 1 {
			found = &xs[0]
		}
	}
	if found == nil && seq == 0 {
		return nil, fmt.Errorf("%s has no tool, prompt or resource call yet", server)
	}
	if found == nil {
		return nil, fmt.Errorf("request #%d of %s is no longer in the log", seq, server)
	}
	if len(found.Response) == 0 {
		return nil, fmt.Errorf("%s has no answer yet: try again once it has one", found.Label())
	}
	return found, nil
}

// RunCollection implements ui.CollectionStore: the collection file at
// path, run against the live session of server (the collection's own
// server when server is "").
func (b *guiBackend) RunCollection(ctx context.Context, path, server string) (*collection.Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := collection.Read(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	if server == "" && c.Server != nil {
		server = c.Server.Name
	}
	if server == "" {
		return nil, errors.New("it names no server: select the server to run it against first")
	}
	b.mu.Lock()
	sess := b.live[server]
	b.mu.Unlock()
	if sess == nil {
		return nil, fmt.Errorf("%s is not connected: connect it, then run the collection again", server)
	}
	if st, _ := sess.State(); st != session.StateConnected {
		return nil, fmt.Errorf("%s is not connected: connect it, then run the collection again", server)
	}
	return collection.Run(ctx, c, sess, nil), nil
}
