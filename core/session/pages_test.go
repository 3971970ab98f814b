package session

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestListTooManyPages: a server that gives a new cursor on every page is
// stopped after maxPages with an error that says so and does not print a
// whole long cursor (issue #11.13: it said "pagination cursor repeated"
// and printed the 10 KB cursor).
func TestListTooManyPages(t *testing.T) {
	fs := newFakeServer(t)
	long := strings.Repeat("x", 10<<10)
	pages := 0
	fs.handle = func(c *fakeConn, m msg) bool {
		if m.Method != "tools/list" {
			return false
		}
		pages++
		cursor := fmt.Sprint(pages)
		if pages == maxPages {
			cursor += long
		}
		c.reply(m.ID, fmt.Sprintf(`{"tools":[],"nextCursor":%q}`, cursor))
		return true
	}
	s, _ := newTestSession(t, fs, nil)
	ctx := testCtx(t)
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	_, err := s.ListTools(ctx, nil)
	if !errors.Is(err, ErrTooManyPages) || errors.Is(err, ErrCursorLoop) {
		t.Fatalf("err = %v, want ErrTooManyPages only", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "more than 10000 pages") || len(msg) > 300 {
		t.Errorf("message %d bytes: %.400s", len(msg), msg)
	}
	if pages != maxPages {
		t.Errorf("%d pages fetched, want %d", pages, maxPages)
	}
}
