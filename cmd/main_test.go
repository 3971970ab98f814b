package cmd

import (
	"os"
	"testing"
)

// TestMain lets the test binary stand in for the spyglass binary: the
// seeded catalog's demo entry (`spyglass --demo-server`) resolves to the
// running executable, which is this test binary, so it must serve the
// demo server when started that way.
func TestMain(m *testing.M) {
	for _, a := range os.Args[1:] {
		if a == "--demo-server" || a == "--conformance-client" {
			os.Exit(Main(os.Args[1:]))
		}
	}
	os.Exit(m.Run())
}
