package mcpresult

import (
	"encoding/json"
	"math"
	"time"
)

// CacheHint is the freshness hint a modern (2026-07-28) cacheable result
// carries: ttlMs and cacheScope of tools/list, resources/list,
// resources/templates/list, prompts/list, resources/read, server/discover
// and the Skills extension's skills/list and skills/get.
type CacheHint struct {
	// Present is true when the result carried ttlMs or cacheScope.
	Present bool
	// TTL is ttlMs as a duration (0 when absent or invalid: not fresh at
	// all).
	TTL time.Duration
	// HasTTL is true when ttlMs was a non-negative number.
	HasTTL bool
	// Scope is cacheScope as sent ("public", "private", or "" when
	// absent).
	Scope string
}

// DecodeCacheHint reads ttlMs and cacheScope from a result. A ttlMs that is
// not a non-negative number, or a cacheScope other than "public" or
// "private", is a Problem; an absent pair is no problem (a legacy result
// has none).
func DecodeCacheHint(raw json.RawMessage) (CacheHint, Problems) {
	var ps Problems
	var r struct {
		TTL   *json.RawMessage `json:"ttlMs"`
		Scope *json.RawMessage `json:"cacheScope"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return CacheHint{}, nil
	}
	var h CacheHint
	if r.TTL != nil {
		h.Present = true
		var ms float64
		if err := json.Unmarshal(*r.TTL, &ms); err != nil || ms < 0 || math.IsInf(ms, 0) || ms > float64(math.MaxInt64/int64(time.Millisecond)) {
			ps = append(ps, Problem{"/ttlMs", "must be a non-negative number of milliseconds, not " + string(*r.TTL)})
		} else {
			h.TTL, h.HasTTL = time.Duration(ms*float64(time.Millisecond)), true
		}
	}
	if r.Scope != nil {
		h.Present = true
		var s string
		if err := json.Unmarshal(*r.Scope, &s); err != nil || (s != "public" && s != "private") {
			ps = append(ps, Problem{"/cacheScope", `must be "public" or "private", not ` + string(*r.Scope)})
		}
		if err := json.Unmarshal(*r.Scope, &s); err == nil {
			h.Scope = s
		}
	}
	return h, ps
}

// Freshness is a cache hint held since the result arrived.
type Freshness struct {
	Hint CacheHint
	// Received is when the result arrived.
	Received time.Time
}

// Remaining is how long the result stays fresh after now (0 once stale).
func (f Freshness) Remaining(now time.Time) time.Duration {
	if !f.Hint.HasTTL {
		return 0
	}
	left := f.Received.Add(f.Hint.TTL).Sub(now)
	if left < 0 {
		return 0
	}
	return left
}

// Fresh reports whether the result is still within its ttlMs at now.
func (f Freshness) Fresh(now time.Time) bool { return f.Remaining(now) > 0 }
