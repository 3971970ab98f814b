// Package idlemem is the window's runtime memory policy: once the process
// has gone quiet after a burst of work, the memory the collector freed is
// handed back to the system at once instead of being kept for a next
// burst that may never come.
//
// Go keeps freed heap pages up to about its heap goal (twice the live
// heap with GOGC=100) and its background scavenger returns the rest
// slowly, so a desktop window that opened a 50 MB result, took a flood
// or just drew its first screens stays at its high-water mark while it
// sits idle for hours. Run samples the runtime's own counters (no stop of
// the world) and calls debug.FreeOSMemory (a collection, then every free
// page returned) at the first quiet sample — little allocated since the
// one before — after a burst of at least 8 MB of allocation; a process
// that stays idle pays nothing more.
// GOGC stays at its default: a lower value would cost the UI thread
// collections during floods, where the CPU is scarcest.
package idlemem
