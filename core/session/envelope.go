package session

import (
	"bytes"
	"encoding/json"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"
)

// The envelope of every incoming message is read here, once, with gjson
// over the message's own bytes (#17): a flood of 10,000 notifications a
// second spent about a second of CPU a flood in encoding/json's
// reflective decode of the envelope and again of each notification's
// params, competing with the window's UI thread on two cores. Anything
// unusual (not an object, a key that only matches without regard to
// case, a method that is not a plain string) goes through encoding/json,
// so that what is accepted and how stays encoding/json's.

// aliasString is b as a string without a copy. Only for reading bytes
// that are never modified afterwards (a received message); nothing read
// from it may be kept without strings.Clone.
func aliasString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// spanIn is the window of raw that v (read from aliasString(raw)) is.
func spanIn(raw []byte, v gjson.Result) span {
	off := int(uintptr(unsafe.Pointer(unsafe.StringData(v.Raw))) - uintptr(unsafe.Pointer(unsafe.SliceData(raw))))
	end := off + len(v.Raw)
	return span(raw[off:end:end])
}

// decodeEnvelope reads a message's envelope: encoding/json's result on
// every input, its error included, without its cost on a well-formed one.
func decodeEnvelope(raw []byte) (envelope, error) {
	var env envelope
	t := bytes.TrimLeft(raw, " \t\r\n")
	if len(t) == 0 || t[0] != '{' || !gjson.ValidBytes(t) {
		return env, json.Unmarshal(raw, &env)
	}
	slow := false
	gjson.Parse(aliasString(t)).ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "jsonrpc":
			env.JSONRPC = spanIn(t, v)
		case "id":
			env.ID = spanIn(t, v)
		case "params":
			env.Params = spanIn(t, v)
		case "result":
			env.Result = spanIn(t, v)
		case "error":
			env.Error = spanIn(t, v)
		case "method":
			switch {
			case v.Type == gjson.Null: // encoding/json leaves the string as it was
			case v.Type != gjson.String || strings.ContainsAny(v.Raw, `\`) || !isASCII(v.Str):
				slow = true // not a string, or escapes to decode as encoding/json does
			default:
				env.Method = internMethod(v.Str)
			}
		default:
			slow = envelopeKey(k.Str) // "Method" matches too in encoding/json
		}
		return !slow
	})
	if slow {
		env = envelope{}
		return env, json.Unmarshal(raw, &env)
	}
	return env, nil
}

// envelopeKey reports whether encoding/json would take key as one of the
// envelope's members without regard to case.
func envelopeKey(key string) bool {
	for _, k := range [...]string{"jsonrpc", "id", "method", "params", "result", "error"} {
		if strings.EqualFold(key, k) {
			return true
		}
	}
	return false
}

// knownMethods are the methods a server sends most, kept as constants
// so that reading one allocates nothing.
var knownMethods = [...]string{MethodMessage, MethodProgress, MethodCancelled, MethodResourceUpdated,
	MethodTaskStatus, "ping", "sampling/createMessage", "elicitation/create", "roots/list"}

// internMethod is m as a string of its own: a known method's constant, or
// a copy.
func internMethod(m string) string {
	for _, k := range knownMethods {
		if m == k {
			return k
		}
	}
	return strings.Clone(m)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// relatedOf reads what a request's or notification's params say about
// its run: the progress token (of the params or their _meta), the request
// a cancellation names, the related task. Members are matched exactly, as
// MCP names them.
func relatedOf(params []byte) related {
	var rel related
	p := bytes.TrimLeft(params, " \t\r\n")
	if len(p) == 0 || p[0] != '{' || !gjson.ValidBytes(p) {
		return rel
	}
	var token, metaToken, task, metaTask string
	gjson.Parse(aliasString(p)).ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "progressToken":
			token = v.Raw
		case "requestId":
			rel.requestID = strings.Clone(v.Raw)
		case "taskId":
			if v.Type == gjson.String {
				task = v.Str
			}
		case "_meta":
			if v.IsObject() {
				v.ForEach(func(k, v gjson.Result) bool {
					switch k.Str {
					case "progressToken":
						metaToken = v.Raw
					case "io.modelcontextprotocol/related-task":
						if id := v.Get("taskId"); id.Type == gjson.String {
							metaTask = id.Str
						}
					}
					return true
				})
			}
		}
		return true
	})
	if token == "" {
		token = metaToken
	}
	if metaTask != "" {
		task = metaTask
	}
	rel.token, rel.taskID = strings.Clone(token), strings.Clone(task)
	return rel
}
