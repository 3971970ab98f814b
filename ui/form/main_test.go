package form

import (
	"os"
	"testing"
)

// TestMain gives Fyne a locale it can parse (CI machines often run with
// LANG=C, which Fyne reports as an error on every app start).
func TestMain(m *testing.M) {
	if l := os.Getenv("LANG"); l == "" || l == "C" || l == "POSIX" {
		os.Setenv("LANG", "en_US.UTF-8")
	}
	os.Exit(m.Run())
}
