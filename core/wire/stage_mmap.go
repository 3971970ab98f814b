//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package wire

import "syscall"

// newStageChunk maps an empty chunk of stageChunk bytes outside Go's
// heap (its pages cost memory only once written), or takes it from the
// heap when the mapping fails.
func newStageChunk() []byte {
	b, err := syscall.Mmap(-1, 0, stageChunk, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]byte, 0, stageChunk)
	}
	return b[:0]
}

// freeStageChunk unmaps a chunk newStageChunk mapped, which gives its
// memory back at once; a chunk from the heap is left to the collector
// (Munmap refuses what it did not map).
func freeStageChunk(c []byte) {
	_ = syscall.Munmap(c[:cap(c)])
}
