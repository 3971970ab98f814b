//go:build race

package events

// raceEnabled: the race detector makes byte loops over 100 MB take
// minutes, so the memory tests use smaller messages under it (their
// bounds are relative to the size).
const raceEnabled = true
