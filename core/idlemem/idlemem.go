package idlemem

import (
	"context"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// Options tune Run; the zero value is the window's policy.
type Options struct {
	// Every is how often the counters are sampled (default 1s).
	Every time.Duration
	// Quiet is the most that may be allocated since the last sample for
	// the process to count as idle (default 1 MB).
	Quiet uint64
	// Burst is the least that must have been allocated since the last
	// release for a quiet process to be worth a collection (default 8
	// MB): what a burst left behind is garbage the collector has not
	// found yet (no collection comes while the process sits idle below
	// its heap goal) and free pages it keeps.
	Burst uint64
	// OnRelease, if set, is called after each release with the bytes
	// allocated since the one before (for tests and logs).
	OnRelease func(allocated uint64)
}

// allocsMetric is the runtime's count of bytes allocated, ever.
const allocsMetric = "/gc/heap/allocs:bytes"

// Run applies the policy until ctx ends.
func Run(ctx context.Context, o *Options) {
	var opt Options
	if o != nil {
		opt = *o
	}
	if opt.Every <= 0 {
		opt.Every = time.Second
	}
	if opt.Quiet == 0 {
		opt.Quiet = 1 << 20
	}
	if opt.Burst == 0 {
		opt.Burst = 8 << 20
	}
	sample := []metrics.Sample{{Name: allocsMetric}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	last := read()
	since := last // at the last release
	t := time.NewTicker(opt.Every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		allocs := read()
		if allocs-last <= opt.Quiet && allocs-since >= opt.Burst {
			debug.FreeOSMemory()
			if opt.OnRelease != nil {
				opt.OnRelease(allocs - since)
			}
			allocs = read()
			since = allocs
		}
		last = allocs
	}
}
