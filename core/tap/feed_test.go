package tap

import (
	"bufio"
	"encoding/json"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/appsock"
	"github.com/spyglass-mcp/spyglass/core/events"
)

// TestFeedAppGoesAway: the tap feeds its events live to a listening app
// (a stand-in for the window's side of core/appsock; cmd's TestGUITapFeed
// feeds the real window); the app goes away in the middle of the session;
// the host's traffic goes on unchanged (2,000 more round trips, every
// byte) and the tap says once that the feed stopped.
func TestFeedAppGoesAway(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "app.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan []events.Event, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		br := bufio.NewReader(c)
		line, _ := br.ReadBytes('\n')
		var m appsock.Message
		if json.Unmarshal(line, &m) != nil || m.Kind != FeedKind || len(m.Args) == 0 || m.Args[0] != "tapped" {
			t.Errorf("hello %q", line)
		}
		c.Write([]byte(`{"ok":true}` + "\n"))
		var evs []events.Event
		for len(evs) < 20 { // some of the session, then the app quits
			line, err := br.ReadBytes('\n')
			if err != nil {
				break
			}
			var e events.Event
			if err := json.Unmarshal(line, &e); err != nil {
				t.Errorf("feed line %q: %v", line, err)
			}
			evs = append(evs, e)
		}
		c.Close()
		ln.Close()
		got <- evs
	}()
	h := startTap(t, "--feed", sock, "--", "cat")
	h.roundTrips(t, 1, 10)
	evs := <-got
	h.roundTrips(t, 11, 2000)
	if code := h.end(t); code != 0 {
		t.Errorf("exit %d; stderr: %s", code, h.stderr.String())
	}
	msgs := 0
	for _, e := range evs {
		if e.Kind == events.KindMessage && e.Conn == "tapped" {
			msgs++
		}
	}
	if msgs == 0 {
		t.Errorf("the app got no messages: %+v", evs)
	}
	if n := strings.Count(h.stderr.String(), "live feed stopped"); n != 1 {
		t.Errorf("the feed's end was reported %d times: %s", n, h.stderr.String())
	}
}

// TestFeedNoApp: with nobody listening, StartFeed says so at once.
func TestFeedNoApp(t *testing.T) {
	_, err := StartFeed(filepath.Join(t.TempDir(), "none.sock"), events.New(nil), events.ConnInfo{Conn: "x"}, nil)
	if !errors.Is(err, ErrNoApp) {
		t.Errorf("got %v, want ErrNoApp", err)
	}
}
