package events

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// maxTitle bounds the length of a title taken from free text.
const maxTitle = 200

// Badge returns the inspector's badge for an outcome: `17ms`,
// `error · 17ms`, `timed out · 60.0s`, `cancelled`,
// `cancelled · late reply`, `no response` or `waiting…`.
func (o Outcome) Badge() string {
	switch o.State {
	case Waiting:
		return "waiting…"
	case OK:
		if o.ToolError {
			return "tool error · " + FormatLatency(o.Latency)
		}
		return FormatLatency(o.Latency)
	case Failed:
		return "error · " + FormatLatency(o.Latency)
	case TimedOut:
		return "timed out · " + FormatLatency(o.Latency)
	case Cancelled:
		return "cancelled"
	case CancelledLate:
		return "cancelled · late reply"
	case NoResponse:
		return "no response"
	}
	return string(o.State)
}

// FormatLatency writes a duration the way badges do: whole milliseconds
// under a second (`17ms`, `0ms`), then seconds with one decimal (`1.2s`,
// `60.0s`).
func FormatLatency(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	if d < time.Second {
		return strconv.FormatInt(int64(d/time.Millisecond), 10) + "ms"
	}
	return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
}

// Badge returns the event's outcome badge (see Outcome.Badge); only
// request events have one, others return "".
func (e Event) Badge() string {
	if e.Outcome == nil {
		return ""
	}
	return e.Outcome.Badge()
}

// DurationWords writes a duration as a developer reads it in a sentence
// or a details pane, three significant digits and the unit apart:
// `850 ns`, `423 µs`, `1.23 ms`, `2.5 s`, `1 min 5 s`, `2 h 3 min`.
// FormatLatency's badges round to whole milliseconds, which reads `0ms`
// for every local call; a record's exact nanoseconds (`durationNs`) stay
// as they are in the record.
func DurationWords(d time.Duration) string {
	if d < 0 {
		return "-" + DurationWords(-d)
	}
	if d < time.Microsecond {
		return strconv.FormatInt(int64(d), 10) + " ns"
	}
	for _, u := range []struct {
		size time.Duration
		name string
	}{{time.Microsecond, "µs"}, {time.Millisecond, "ms"}, {time.Second, "s"}} {
		v := float64(d) / float64(u.size)
		if v < 999.5 && (u.size < time.Second || v < 59.95) {
			return strconv.FormatFloat(v, 'g', 3, 64) + " " + u.name
		}
	}
	if d < time.Hour {
		d = d.Round(time.Second)
		m, s := d/time.Minute, (d%time.Minute)/time.Second
		if m == 60 {
			return "1 h"
		}
		if s == 0 {
			return strconv.Itoa(int(m)) + " min"
		}
		return strconv.Itoa(int(m)) + " min " + strconv.Itoa(int(s)) + " s"
	}
	d = d.Round(time.Minute)
	h, m := d/time.Hour, (d%time.Hour)/time.Minute
	if m == 0 {
		return strconv.Itoa(int(h)) + " h"
	}
	return strconv.Itoa(int(h)) + " h " + strconv.Itoa(int(m)) + " min"
}

// displayID renders an id for a title: numbers as written, strings
// without quotes unless that would make them look like a number.
func displayID(id string) string {
	if len(id) >= 2 && id[0] == '"' && id[len(id)-1] == '"' {
		inner := id[1 : len(id)-1]
		if inner == "" || strings.ContainsAny(inner, "\"\\ ") {
			return id
		}
		if _, err := strconv.ParseFloat(inner, 64); err == nil || inner == "null" {
			return id
		}
		return inner
	}
	return id
}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i] + " …"
	}
	if len(s) <= maxTitle {
		return s
	}
	cut := maxTitle
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// Title is the event's one-line name in the inspector list: requests
// `tools/call #5`, responses `result #5 · tools/call` or
// `error #5 · tools/call` (`result #7 · unknown id` when unpaired),
// notifications by method, other kinds by what they record.
func (e Event) Title() string {
	switch e.Kind {
	case KindMessage:
		switch e.Type {
		case MsgRequest:
			return e.Method + " #" + displayID(e.ID)
		case MsgNotification:
			if e.Method == "notifications/message" {
				return e.Method + logTitle(e.Raw)
			}
			return e.Method
		case MsgResult, MsgError:
			m := e.Method
			if e.Unpaired && m == "" {
				m = "unknown id"
			}
			t := string(e.Type) + " #" + displayID(e.ID)
			if m != "" {
				t += " · " + m
			}
			return t
		}
		if t := bytes.TrimLeft(e.Raw, " \t\r\n"); len(t) > 0 && t[0] == '[' {
			return "batch"
		}
		return "message"
	case KindStderr:
		return "stderr · " + clip(e.Text)
	case KindState:
		return "state · " + clip(e.Text)
	case KindWarning:
		return "warning · " + clip(e.Text)
	case KindError:
		if e.Summary != "" {
			return "error · " + clip(e.Summary)
		}
		return "error · " + clip(causeFirst(e.Text))
	case KindInvalid:
		t := e.Text
		if t == "" {
			// Only the head: the title is one short line.
			t = strings.ToValidUTF8(string(e.Raw[:min(len(e.Raw), 4*maxTitle)]), "�")
		}
		return "invalid · " + clip(t)
	case KindTool:
		return e.toolTitle()
	case KindHTTP:
		if e.HTTP == nil {
			return "http · " + clip(e.Text)
		}
		h := e.HTTP
		t := h.Method + " " + h.URL
		switch {
		case h.Err != "":
			t += " → " + clip(h.Err)
		case h.Status != 0:
			t += " → " + strconv.Itoa(h.Status)
		}
		if h.Duration > 0 {
			t += " · " + FormatLatency(h.Duration)
		}
		return t
	}
	if e.Text != "" {
		return clip(e.Text)
	}
	return string(e.Kind)
}

// httpFailed reports whether the event is an HTTP exchange that failed
// (status ≥ 400 or a transport error).
func (e Event) httpFailed() bool {
	return e.Kind == KindHTTP && e.HTTP != nil && (e.HTTP.Status >= 400 || e.HTTP.Err != "")
}

// Categories returns the inspector tabs the event belongs to (every event
// is also in "All"): LLM for sampling/createMessage requests and their
// responses; Tools for tools/* traffic and notifications/tools/list_changed;
// RPC for every JSON-RPC message, invalid input, failed HTTP exchanges and
// (as messages) requests that never got an answer; Logs for state changes,
// stderr, warnings, errors, invalid input, unpaired responses and
// notifications/message.
func (e Event) Categories() []Category {
	switch e.Kind {
	case KindMessage:
		switch {
		case e.Method == "sampling/createMessage":
			return catsLLM
		case strings.HasPrefix(e.Method, "tools/") || e.Method == "notifications/tools/list_changed":
			return catsTools
		case e.Method == "notifications/message" || e.Unpaired:
			return catsRPCLogs
		}
		return catsRPC
	case KindHTTP:
		if e.httpFailed() {
			return catsRPC
		}
		return nil
	case KindInvalid:
		return catsRPCLogs
	case KindState, KindStderr, KindWarning, KindError:
		return catsLogs
	case KindTool:
		if e.OutcomeUnknown || e.Tool != nil && (e.Tool.MayHaveRunTwice || e.Tool.SameCallAgain) {
			return catsToolsLogs
		}
		return catsToolsOnly
	}
	return nil
}

// ClassWords says a tool attempt's error class (Event.ErrorClass, the
// values of lineage.ErrorClass) in the words a row or a sentence uses:
// "tool error", "timed out", "transport failure"; an unknown class is
// returned as it is.
func ClassWords(class string) string {
	switch class {
	case "timeout":
		return "timed out"
	case "transport":
		return "transport failure"
	case "protocol":
		return "protocol error"
	case "tool":
		return "tool error"
	case "input":
		return "input error"
	}
	return class // cancelled, declined
}

// toolTitle names a tool attempt: `tool · flaky_write · attempt 2 ·
// may have run twice`, `tool · flaky_write · transport · outcome unknown`.
func (e Event) toolTitle() string {
	t := "tool"
	if e.Tool != nil {
		t += " · " + clip(e.Tool.Name)
	}
	if e.Lineage != nil && e.Lineage.Attempt > 1 {
		t += " · attempt " + strconv.Itoa(e.Lineage.Attempt)
		if e.Tool != nil && e.Tool.Idempotent && !e.Tool.ReadOnly {
			t += " (idempotent)"
		}
	}
	if e.ErrorClass != "" {
		t += " · " + ClassWords(e.ErrorClass)
	}
	switch {
	case e.OutcomeUnknown:
		t += " · outcome unknown"
	case e.Tool != nil && e.Tool.MayHaveRunTwice:
		t += " · may have run twice"
	case e.Tool != nil && e.Tool.SameCallAgain:
		t += " · same call again"
	}
	if e.Tool != nil && e.Tool.Duration > 0 {
		t += " · " + FormatLatency(e.Tool.Duration)
	}
	return t
}

var (
	catsLLM     = []Category{CatLLM, CatRPC}
	catsTools   = []Category{CatTools, CatRPC}
	catsRPC     = []Category{CatRPC}
	catsRPCLogs = []Category{CatRPC, CatLogs}
	catsLogs    = []Category{CatLogs}
	// Tool attempts: in Tools; warnings (outcome unknown, may have run
	// twice, same call again) in Logs too.
	catsToolsOnly = []Category{CatTools}
	catsToolsLogs = []Category{CatTools, CatLogs}
)

// In reports whether the event belongs to category c; the empty category
// (the "All" tab) holds every event.
func (e Event) In(c Category) bool {
	if c == "" {
		return true
	}
	for _, x := range e.Categories() {
		if x == c {
			return true
		}
	}
	return false
}

// Match reports whether the event matches a search query: a
// case-insensitive substring of its title, text, payload (Raw), HTTP URL
// or error, or run. The empty query matches everything.
func Match(e Event, query string) bool {
	query = strings.TrimSpace(query)
	if query == "" {
		return true
	}
	return newMatcher(query).event(&e)
}

// containsFold is a case-insensitive bytes.Contains that allocates
// nothing: a search runs over every payload the inspector holds.
func containsFold(hay []byte, q string) bool {
	if len(q) > len(hay) {
		return false
	}
	for i := 0; i < len(q); i++ {
		if q[i] >= utf8.RuneSelf {
			c0 := lower(q[0])
			for j, c := range hay {
				// The first byte rules most places out.
				if c0 < utf8.RuneSelf && lower(c) != c0 || c0 >= utf8.RuneSelf && c < utf8.RuneSelf {
					continue
				}
				if utf8.RuneStart(c) && hasPrefixFold(hay[j:], q) {
					return true
				}
			}
			return false
		}
	}
	c0 := lower(q[0])
	for i := 0; i+len(q) <= len(hay); i++ {
		if lower(hay[i]) != c0 {
			continue
		}
		j := 1
		for j < len(q) && lower(hay[i+j]) == lower(q[j]) {
			j++
		}
		if j == len(q) {
			return true
		}
	}
	return false
}

// hasPrefixFold reports whether s begins with q, ignoring case.
func hasPrefixFold(s []byte, q string) bool {
	for _, qr := range q {
		r, n := utf8.DecodeRune(s)
		if n == 0 || r != qr && unicode.ToLower(r) != unicode.ToLower(qr) {
			return false
		}
		s = s[n:]
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// String returns a short description for logs and debugging.
func (e Event) String() string {
	s := fmt.Sprintf("#%d %s", e.Seq, e.Title())
	if b := e.Badge(); b != "" {
		s += " [" + b + "]"
	}
	return s
}

// logTitle is " · level · text" of a notifications/message (the logger
// first when there is one); "" when the params do not say. It reads the
// three fields in one pass with gjson instead of decoding the message:
// every log notification is titled when its chunk is sealed, and under a
// flood a json.Unmarshal each was most of the sealing's time (#17).
func logTitle(raw []byte) string {
	f := gjson.GetManyBytes(raw, "params.level", "params.logger", "params.data")
	level, logger, data := f[0], f[1], f[2]
	if level.Type != gjson.String || level.Str == "" {
		return ""
	}
	text := strings.TrimSpace(data.Raw)
	if data.Type == gjson.String {
		text = data.Str
	}
	if logger.Type == gjson.String && logger.Str != "" {
		text = logger.Str + ": " + text
	}
	return " · " + level.Str + " · " + clip(text)
}

// causeFirst words an error chain for a row title, cause first: the
// innermost message, capitalised, then what it happened in, without the
// layers' one-word prefixes — "session: start: wire: start \"x\": exec:
// \"x\": executable file not found in $PATH" reads "Executable file not
// found in $PATH (start \"x\")". The whole chain stays in the event's
// Text, behind the details.
func causeFirst(text string) string {
	parts := strings.Split(strings.TrimSpace(text), ": ")
	if len(parts) < 2 {
		return text
	}
	// a layer's prefix is one lower-case word: session, wire, initialize,
	// tools/call
	layer := func(p string) bool {
		if p == "" || p[0] < 'a' || p[0] > 'z' {
			return false
		}
		return !strings.ContainsAny(p, " \t\"'()[]{}#")
	}
	cause := parts[len(parts)-1]
	var context []string
	for _, p := range parts[:len(parts)-1] {
		if layer(p) || strings.Contains(cause, p) {
			continue
		}
		if len(context) > 0 && strings.Contains(context[len(context)-1], p) {
			continue
		}
		context = append(context, p)
	}
	r, n := utf8.DecodeRuneInString(cause)
	out := string(unicode.ToUpper(r)) + cause[n:]
	if len(context) > 0 {
		out += " (" + strings.Join(context, ": ") + ")"
	}
	return out
}
