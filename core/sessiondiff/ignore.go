package sessiondiff

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// DefaultIgnore is the ignore list used when Options.Ignore is nil: the
// fields that differ between two runs of the same calls without meaning
// anything. Paths are JSON pointers into each JSON-RPC message; "*"
// matches any one key or index and "**" any number of them (none
// included).
var DefaultIgnore = []string{
	"/id",
	"/params/_meta/progressToken",
	"**/sessionId",
	"**/timestamp",
	"**/createdAt",
	"**/lastUpdatedAt",
}

// Ignore is a compiled ignore list.
type Ignore struct {
	patterns [][]string
	source   []string
}

// ParseIgnore compiles ignore patterns: JSON pointers (RFC 6901, "/a/b")
// whose segments may be "*" (any one key or index) or "**" (any number
// of keys, none included); a pattern may start with "**" without the
// leading slash. A pattern that is not a pointer is an error naming it.
func ParseIgnore(patterns []string) (*Ignore, error) {
	ig := &Ignore{source: append([]string(nil), patterns...)}
	for _, p := range patterns {
		switch {
		case p == "" || p == "/":
			return nil, fmt.Errorf("ignore path %q: %w", p, errEmptyPath)
		case strings.HasPrefix(p, "**/"):
			p = "/" + p
		case !strings.HasPrefix(p, "/"):
			return nil, fmt.Errorf("ignore path %q: %w", p, errNotPointer)
		}
		ig.patterns = append(ig.patterns, segments(p))
	}
	return ig, nil
}

// segments splits a JSON pointer that starts with "/" into its decoded
// reference tokens (RFC 6901: ~1 is "/", ~0 is "~").
func segments(ptr string) []string {
	segs := strings.Split(ptr[1:], "/")
	for i, s := range segs {
		segs[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
	}
	return segs
}

// Lookup resolves a JSON pointer (RFC 6901) in a decoded value (see
// Decode): "" is the value itself; ok is false when the pointer leads
// nowhere.
func Lookup(v any, ptr string) (_ any, ok bool) {
	if ptr == "" {
		return v, true
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false
	}
	for _, seg := range segments(ptr) {
		switch t := v.(type) {
		case map[string]any:
			c, ok := t[seg]
			if !ok {
				return nil, false
			}
			v = c
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(t) || (len(seg) > 1 && seg[0] == '0') {
				return nil, false
			}
			v = t[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// Patterns returns the patterns the list was made from.
func (ig *Ignore) Patterns() []string { return append([]string(nil), ig.source...) }

// match reports whether the path (decoded segments) is ignored.
func (ig *Ignore) match(path []string) bool {
	if ig == nil {
		return false
	}
	return slices.ContainsFunc(ig.patterns, func(p []string) bool { return matchSegs(p, path) })
}

func matchSegs(pat, path []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(path); i++ {
				if matchSegs(pat[1:], path[i:]) {
					return true
				}
			}
			return false
		}
		if len(path) == 0 || (pat[0] != "*" && pat[0] != path[0]) {
			return false
		}
		pat, path = pat[1:], path[1:]
	}
	return len(path) == 0
}

// prune removes every ignored member from v (a decoded JSON value), in
// place, and returns it. path is v's own location.
func (ig *Ignore) prune(v any, path []string) any {
	if ig == nil || len(ig.patterns) == 0 {
		return v
	}
	switch t := v.(type) {
	case map[string]any:
		for k, c := range t {
			p := append(path[:len(path):len(path)], k)
			if ig.match(p) {
				delete(t, k)
				continue
			}
			t[k] = ig.prune(c, p)
		}
	case []any:
		out := t[:0]
		for i, c := range t {
			p := append(path[:len(path):len(path)], strconv.Itoa(i))
			if ig.match(p) {
				continue
			}
			out = append(out, ig.prune(c, p))
		}
		return out
	}
	return v
}
