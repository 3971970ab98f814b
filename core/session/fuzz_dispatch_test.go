package session

import (
	"bytes"
	"encoding/json"
	"testing"
	"testing/synctest"
)

// FuzzDispatch hands random bytes to the session as one message received
// from a connected server (#10): the dispatch must not panic, and every
// request in it (a lone object or a batch member with a method and an id)
// gets exactly one response or error back, once the handlers are done.
func FuzzDispatch(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a","method":"roots/list","params":{}}`,
		`{"jsonrpc":"2.0","id":2,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}`,
		`{"jsonrpc":"2.0","id":3,"method":"elicitation/create","params":{"message":"x","requestedSchema":{"type":"object"}}}`,
		`[{"jsonrpc":"2.0","id":4,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}},42]`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":99,"result":{}}`,
		`{"jsonrpc":"1.0","id":5,"error":{"code":1}}`,
		`{"id":null,"method":"x"}`, `[]`, `[[]]`, `{"method":5}`, `{`, "\x00",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want := requestIDs(data)
		synctest.Test(t, func(t *testing.T) {
			fs := newFakeServer(t)
			s, _ := newTestSession(t, fs, nil)
			if err := s.Connect(testCtx(t)); err != nil {
				t.Fatal(err)
			}
			fs.conn().emit(string(data))
			synctest.Wait() // the handlers answered, the fake server read it all
			got := map[string]int{}
			fs.mu.Lock()
			for _, m := range fs.got {
				if m.Method == "" && len(m.ID) > 0 {
					got[compactID(m.ID)]++
				}
			}
			fs.mu.Unlock()
			for id, n := range want {
				if got[id] != n {
					t.Errorf("request id %s (%d of them) got %d responses, want %d; message %q", id, n, got[id], n, data)
				}
			}
			for id, n := range got {
				if want[id] == 0 {
					t.Errorf("%d responses to id %s, which no request had; message %q", n, id, data)
				}
			}
		})
	})
}

// requestIDs counts the requests in a received message (or batch) by id.
func requestIDs(data []byte) map[string]int {
	out := map[string]int{}
	one := func(raw []byte) {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(raw, &m) != nil || m.Method == "" {
			return
		}
		if id := bytes.TrimSpace(m.ID); len(id) > 0 && string(id) != "null" {
			out[compactID(id)]++
		}
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(t, &batch) == nil {
			for _, m := range batch {
				one(m)
			}
			return out
		}
	}
	one(data)
	return out
}

func compactID(id []byte) string {
	var b bytes.Buffer
	if json.Compact(&b, id) != nil {
		return string(id)
	}
	return b.String()
}
