//go:build race

package wire

// raceOn: the race detector's shadow memory grows with every byte
// written, so resident-set bounds do not hold under it.
const raceOn = true
