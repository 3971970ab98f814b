package idlemem

import (
	"context"
	"runtime/metrics"
	"testing"
	"testing/synctest"
	"time"
)

var sink [][]byte

// heapObjects is the heap's bytes in objects, garbage not yet collected
// included.
func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// A burst of 64 MB, live across one sample and then dropped, is not
// released while the process is still allocating (the sample after it)
// but is at the first quiet one — though no collection has found it to
// be garbage yet; once returned, an idle process is left alone.
func TestReleaseWhenQuiet(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		released := make(chan uint64, 10)
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		go Run(ctx, &Options{OnRelease: func(n uint64) { released <- n }})
		synctest.Wait() // Run has read its first sample
		for range 64 {
			sink = append(sink, make([]byte, 1<<20))
		}
		time.Sleep(time.Second) // the first tick: busy
		synctest.Wait()
		select {
		case n := <-released:
			t.Fatalf("released after %d bytes were allocated in the last second", n)
		default:
		}
		sink = nil
		time.Sleep(time.Second) // the second: quiet
		synctest.Wait()
		select {
		case n := <-released:
			if n < 64<<20 {
				t.Fatalf("released after %d bytes of allocation, want the burst's 64 MB", n)
			}
		default:
			t.Fatal("nothing released at the first quiet sample after a 64 MB burst")
		}
		if h := heapObjects(); h >= 32<<20 {
			t.Fatalf("the heap holds %d MB of objects after the release, want the burst gone", h>>20)
		}
		time.Sleep(3 * time.Second)
		synctest.Wait()
		select {
		case n := <-released:
			t.Fatalf("released again (%d bytes allocated) while idle", n)
		default:
		}
	})
}
