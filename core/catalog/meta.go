package catalog

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

// Reserved _meta keys: the protocol defines their shape, so a value of
// another shape would make a conforming server reject the whole request.
const (
	MetaProgressToken = "progressToken"
	MetaRelatedTask   = "io.modelcontextprotocol/related-task"
)

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER (2^53-1).
const maxSafeInteger = 1<<53 - 1

// SanitizeMeta checks the reserved keys of a _meta object: progressToken
// must be a string or a safe integer, io.modelcontextprotocol/related-task
// must be {"taskId": "<string>"}. It returns the object without the
// offending keys (other keys unchanged, order kept) and one Warning per
// dropped key. A raw value that is not a JSON object is returned as nil
// with a warning. Use it when merging a server's default metadata into an
// outgoing request.
func SanitizeMeta(raw json.RawMessage) (json.RawMessage, []Warning) {
	if raw == nil {
		return nil, nil
	}
	raw = bytes.TrimSpace(raw)
	obj, err := scanObject(raw, 0, len(raw))
	if err != nil || !json.Valid(raw) {
		return nil, []Warning{{Field: "metadata", Msg: "not a JSON object; ignored"}}
	}
	var ws []Warning
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	for _, m := range obj.members {
		v := raw[m.valStart:m.valEnd]
		if msg := checkReserved(m.key, v); msg != "" {
			ws = append(ws, Warning{Field: "metadata", Key: m.key, Msg: msg})
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.Write(raw[m.keyStart:m.keyEnd])
		b.WriteByte(':')
		b.Write(compact(v))
	}
	b.WriteByte('}')
	if len(ws) == 0 {
		return raw, nil
	}
	return b.Bytes(), ws
}

// checkReserved returns why a reserved key's value is wrong, or "".
func checkReserved(key string, v []byte) string {
	switch key {
	case MetaProgressToken:
		switch valueKind(v) {
		case "string":
			return ""
		case "number":
			f, err := strconv.ParseFloat(string(v), 64)
			if err != nil || f != math.Trunc(f) || math.Abs(f) > maxSafeInteger {
				return "must be a string or a safe integer (at most 2^53-1); dropped from requests"
			}
			return ""
		}
		return "must be a string or a safe integer; dropped from requests"
	case MetaRelatedTask:
		var rt struct {
			TaskID *string `json:"taskId"`
		}
		if valueKind(v) != "object" || json.Unmarshal(v, &rt) != nil || rt.TaskID == nil {
			return `must be {"taskId": "<string>"}; dropped from requests`
		}
	}
	return ""
}
