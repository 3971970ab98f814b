//go:build crashtest

package cmd

import "os"

// A build tagged crashtest (tests only) crashes the real app on purpose
// when SPYGLASS_TEST_CRASH is set, so a test can find the crash log.
func init() {
	crashTrigger = func() {
		if msg := os.Getenv("SPYGLASS_TEST_CRASH"); msg != "" {
			go panic("spyglass test crash: " + msg)
		}
	}
}
