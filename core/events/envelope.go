package events

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// seen records that a key was present without keeping its value, so a
// 100 MB result costs encoding/json's scan but no copy.
type seen uint8

// The states of a seen key.
const (
	absent seen = iota
	null
	given
)

// UnmarshalJSON implements json.Unmarshaler.
func (s *seen) UnmarshalJSON(b []byte) error {
	*s = given
	if string(b) == "null" {
		*s = null
	}
	return nil
}

// envelope is the top level of a JSON-RPC message, as the log needs it.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method json.RawMessage `json:"method"`
	Result seen            `json:"result"`
	Error  seen            `json:"error"`
}

// decodeEnvelope derives type, id (normalised) and method of a message
// the caller did not describe (a test, a trace loaded into a log). The
// session passes them itself. ok is false when raw is not a JSON-RPC
// object.
func decodeEnvelope(raw []byte) (typ MessageType, id, method string, ok bool) {
	var env envelope
	if json.Unmarshal(raw, &env) != nil {
		return "", "", "", false
	}
	if len(env.Method) > 0 {
		if json.Unmarshal(env.Method, &method) != nil {
			method = string(env.Method)
		}
	}
	switch {
	case len(env.Method) > 0 && len(env.ID) > 0:
		typ = MsgRequest
	case len(env.Method) > 0:
		typ = MsgNotification
	case env.Error != absent:
		typ = MsgError
	case env.Result != absent:
		typ = MsgResult
	default:
		return "", "", "", false
	}
	return typ, NormalizeID(string(env.ID)), method, true
}

// cancelledID returns the normalised params.requestId of a
// notifications/cancelled message, or "".
func cancelledID(raw []byte) string {
	var m struct {
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	_ = json.Unmarshal(raw, &m)
	return NormalizeID(string(m.Params.RequestID))
}

// ToolError reports whether the event is a tools/call result that says
// isError: true — the call was answered, and the tool reports it failed.
func (e Event) ToolError() bool {
	return e.Kind == KindMessage && e.Type == MsgResult && e.Method == "tools/call" && toolError(e.Raw)
}

// toolError reports whether a tools/call result says isError: true.
func toolError(raw []byte) bool {
	if !bytes.Contains(raw, []byte(`"isError"`)) {
		return false
	}
	var m struct {
		Result struct {
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	_ = json.Unmarshal(raw, &m)
	return m.Result.IsError
}

// NormalizeID returns the canonical text of a JSON-RPC id as the log
// compares ids: `5`, `"abc"`. Strings are re-quoted minimally, integral
// numbers are written as plain integers (`5.0` is `5`), anything else is
// kept as written (trimmed). 1 and "1" stay different. Callers of
// MarkCancelled and MarkTimedOut may pass either form.
func NormalizeID(id string) string {
	id = strings.TrimSpace(id)
	if id == "" {
		return ""
	}
	switch c := id[0]; {
	case c == '"':
		plain := len(id) >= 2 && id[len(id)-1] == '"'
		for i := 1; plain && i < len(id)-1; i++ {
			b := id[i]
			plain = b != '\\' && b != '"' && b >= 0x20 && b < utf8.RuneSelf
		}
		if plain {
			return id
		}
		var s string
		if json.Unmarshal([]byte(id), &s) != nil {
			return id
		}
		return quoteID(s)
	case c == '-' || (c >= '0' && c <= '9'):
		if !strings.ContainsAny(id, ".eE") {
			if id == "-0" {
				return "0"
			}
			return id
		}
		f, err := strconv.ParseFloat(id, 64)
		if err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return strconv.FormatInt(int64(f), 10)
		}
	}
	return id
}

// quoteID writes s as a minimal JSON string: only '"', '\' and control
// characters are escaped.
func quoteID(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[r>>4])
			b.WriteByte("0123456789abcdef"[r&0xf])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
