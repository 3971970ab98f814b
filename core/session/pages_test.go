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

// TestListPageShapes: a page's items are split off their array exactly
// as sent (spaces, nesting and escapes kept), a cursor that is not a
// string ends the list, and a member that is not an array is a decode
// error, not an empty list.
func TestListPageShapes(t *testing.T) {
	for _, c := range []struct {
		name, page string
		items      []string
		err        bool
	}{
		{"items as sent", `{"tools": [ {"name":"a","x":[1,{"y":"]"}]} , {"name":"b\"c"} ] }`, []string{`{"name":"a","x":[1,{"y":"]"}]}`, `{"name":"b\"c"}`}, false},
		{"cursor not a string", `{"tools":[{"name":"a"}],"nextCursor":7}`, []string{`{"name":"a"}`}, false},
		{"cursor null", `{"tools":[{"name":"a"}],"nextCursor":null}`, []string{`{"name":"a"}`}, false},
		{"no tools", `{"tools":null}`, nil, false},
		{"tools an object", `{"tools":{"name":"a"}}`, nil, true},
		{"tools sent twice", `{"tools":[{"name":"a"}],"nextCursor":null,"tools":[{"name":"b"}]}`, []string{`{"name":"b"}`}, false},
		{"escaped key", `{"tool\u0073":[{"name":"a"}]}`, []string{`{"name":"a"}`}, false},
		{"result null", `null`, nil, false},
		{"result an array", `[{"name":"a"}]`, nil, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := newFakeServer(t)
			fs.handle = func(fc *fakeConn, m msg) bool {
				if m.Method != "tools/list" {
					return false
				}
				fc.reply(m.ID, c.page)
				return true
			}
			s, _ := newTestSession(t, fs, nil)
			l, err := s.ListTools(testCtx(t), nil)
			if c.err {
				if !errors.Is(err, ErrDecode) {
					t.Fatalf("err %v, want a decode error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, it := range l.Items {
				got = append(got, string(it))
			}
			if strings.Join(got, "\n") != strings.Join(c.items, "\n") {
				t.Errorf("items\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.items, "\n"))
			}
		})
	}
}
