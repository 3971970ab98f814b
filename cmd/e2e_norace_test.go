//go:build !race

package cmd

// raceEnabled: this test binary has no race detector (see e2e_race_test.go).
const raceEnabled = false
