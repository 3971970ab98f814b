package fit

import "strings"

// IdentSeparators are the characters a line of an identifier (a tool's
// name, a URI, a URL) may end after.
const IdentSeparators = " _-./:?&=#"

// IdentChunks splits s after each of IdentSeparators; the chunks joined
// are s.
func IdentChunks(s string) []string {
	var out []string
	start := 0
	for i, r := range s {
		if strings.ContainsRune(IdentSeparators, r) {
			out = append(out, s[start:i+1])
			start = i + 1
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// IdentLines puts s's chunks on lines at most width wide (width 0 or
// less: one chunk a line); a chunk wider than width alone is broken by
// character.
func IdentLines(s string, width float32, measure func(string) float32) []string {
	var lines []string
	cur := ""
	for _, c := range IdentChunks(s) {
		switch {
		case cur != "" && (width <= 0 || measure(cur+c) > width):
			lines = append(lines, cur)
			cur = c
		default:
			cur += c
		}
		for width > 0 && measure(cur) > width && len([]rune(cur)) > 1 {
			rs := []rune(cur)
			n := len(rs) - 1
			for n > 1 && measure(string(rs[:n])) > width {
				n--
			}
			lines = append(lines, string(rs[:n]))
			cur = string(rs[n:])
		}
	}
	if cur != "" || len(lines) == 0 {
		lines = append(lines, cur)
	}
	return lines
}
