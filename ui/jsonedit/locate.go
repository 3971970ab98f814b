package jsonedit

import (
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"
)

// Locate says where text stops being JSON: the 1-based line and column (in
// characters) of the character the decoder stopped at, as encoding/json's
// SyntaxError offset gives it, or ok false when text is valid JSON (or
// empty, where there is nothing to point at).
func Locate(text string) (line, col int, ok bool) {
	if strings.TrimSpace(text) == "" || json.Valid([]byte(text)) {
		return 0, 0, false
	}
	var v any
	err := json.Unmarshal([]byte(text), &v)
	off := len(text) // unexpected end: after the last character
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = min(int(se.Offset), len(text))
	}
	before := text[:off]
	line = strings.Count(before, "\n") + 1
	col = max(1, utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:]))
	return line, col, true
}
