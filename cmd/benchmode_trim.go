//go:build linux && cgo

package cmd

/*
#include <malloc.h>
*/
import "C"

// trimCHeap hands the C heap's free pages back to the kernel (glibc's
// malloc_trim), as settledMemory has Go's: what Mesa, GLFW and the font
// rasteriser freed stays in malloc's arenas, resident, until then.
func trimCHeap() { C.malloc_trim(0) }
