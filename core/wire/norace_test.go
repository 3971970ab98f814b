//go:build !race

package wire

// raceOn: see race_test.go.
const raceOn = false
