//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package wire

// newStageChunk takes an empty chunk of stageChunk bytes from the heap
// (no anonymous mappings through package syscall on this system).
func newStageChunk() []byte { return make([]byte, 0, stageChunk) }

// freeStageChunk leaves the chunk to the collector.
func freeStageChunk([]byte) {}
