package ui

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// richBackend is a fakeBackend whose connections have a chosen handshake
// and tool list.
type richBackend struct {
	*fakeBackend
	info  ServerInfo
	tools []Tool
}

func (b *richBackend) Open(name string, onState func(StateView)) (Conn, error) {
	c, err := b.fakeBackend.Open(name, onState)
	return &richConn{fakeConn: c.(*fakeConn), b: b}, err
}

type richConn struct {
	*fakeConn
	b *richBackend
}

func (c *richConn) Info() ServerInfo { return c.b.info }
func (c *richConn) ListTools(context.Context, string) ([]Tool, string, error) {
	return c.b.tools, "", nil
}

// richConnected opens a window on b's server "fake" and waits for its tools.
func richConnected(t *testing.T, b *richBackend) *serverScreens {
	t.Helper()
	w := newTestWindowBackend(t, b)
	Sync(func() { w.server("fake").onConnect() })
	var ss *serverScreens
	waitFor(t, "connected", func() bool {
		ss = w.server("fake").screens
		return ss != nil && len(ss.tools.all) == len(b.tools)
	})
	return ss
}

// TestInfoHandshake: Server info says the negotiated version, the era and
// the request that reached it, and the fallback taken and why.
func TestInfoHandshake(t *testing.T) {
	for _, tc := range []struct {
		name string
		info ServerInfo
		want []string
		not  []string
	}{
		{"modern", ServerInfo{ProtocolVersion: "2026-07-28", RequestedVersion: "2026-07-28", Modern: true},
			[]string{"2026-07-28", "modern era, via server/discover"}, []string{"fell back", "asked for"}},
		{"legacy", ServerInfo{ProtocolVersion: "2025-11-25", RequestedVersion: "2025-11-25"},
			[]string{"2025-11-25", "legacy era, via initialize"}, []string{"fell back", "modern"}},
		{"auto fallback", ServerInfo{ProtocolVersion: "2025-11-25", RequestedVersion: "2026-07-28",
			Fallback: "server/discover failed (Method not found); fell back to initialize"},
			[]string{"legacy era, via initialize (asked for 2026-07-28)", "server/discover failed (Method not found); fell back to initialize"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &richBackend{fakeBackend: newFakeBackend("fake"), info: tc.info,
				tools: []Tool{{Name: "echo", InputSchema: json.RawMessage(`{"type":"object"}`)}}}
			ss := richConnected(t, b)
			var got string
			Sync(func() { ss.info.onRefresh(); got = texts(ss.info.box) })
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("server info lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(got, w) {
					t.Errorf("server info says %q:\n%s", w, got)
				}
			}
		})
	}
}

// TestToolHeaderError: a tool whose x-mcp-header declarations are invalid
// carries a warning with the reason, and Run says why it is not sent
// (nothing reaches the connection); a valid tool beside it runs.
func TestToolHeaderError(t *testing.T) {
	why := errors.New(`the tool declares invalid x-mcp-header parameters: header "Bad Name" is not a valid token`)
	b := &richBackend{fakeBackend: newFakeBackend("fake"), tools: []Tool{
		{Name: "bad", InputSchema: json.RawMessage(`{"type":"object"}`), HeaderError: why},
		{Name: "echo", InputSchema: json.RawMessage(`{"type":"object"}`)},
	}}
	ss := richConnected(t, b)
	var detail string
	Sync(func() {
		ss.tools.list.Select(0)
		detail = texts(ss.tools.formObj)
	})
	if !strings.Contains(detail, `Spyglass does not call this tool: The tool declares invalid x-mcp-header parameters: header "Bad Name" is not a valid token`) {
		t.Errorf("the tool's detail has no warning with the reason:\n%s", detail)
	}
	Sync(func() { ss.tools.onRun() })
	var got string
	Sync(func() { got = texts(ss.tools.result) })
	for _, w := range []string{"Not sent: the tool's x-mcp-header declarations are invalid", `header "Bad Name" is not a valid token`} {
		if !strings.Contains(got, w) {
			t.Errorf("Run's answer lacks %q:\n%s", w, got)
		}
	}
	if c := b.conns["fake"]; c.calls != 0 {
		t.Errorf("the refused tool reached the connection (%d calls)", c.calls)
	}
	// a valid tool has no warning and runs
	Sync(func() {
		ss.tools.list.Select(1)
		if ss.tools.refused.Visible() {
			t.Error("a valid tool shows the header warning")
		}
	})
	if got := runTool(t, ss, "echo", ""); !strings.Contains(got, "Result") {
		t.Errorf("echo did not run:\n%s", got)
	}
}
