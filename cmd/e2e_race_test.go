//go:build race

package cmd

// raceEnabled: this test binary has the race detector, so the end-to-end
// test builds the app with it too (its packages are compiled already).
const raceEnabled = true
