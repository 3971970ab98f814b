// Package locale keeps Fyne from complaining about the "C" locale.
//
// Fyne's lang package parses the user's locale in its package init and
// logs an error for "C" or "POSIX" (the locale of most scripts, CI jobs and
// containers), which would land on the stderr of every --cli run. Go
// initializes, among the packages whose imports are ready, the one with
// the smallest import path first; this package imports only os, so it runs
// before fyne.io/fyne/v2/lang, whose imports include golang.org/x/text.
// It sets the locale variable in force to en_US.UTF-8 for that moment, and
// Restore (called first thing in main) puts the environment back exactly
// as it was, so servers that Spyglass spawns inherit the user's locale.
package locale

import "os"

var (
	key     string // the variable changed, "" if none
	old     string
	hadOld  bool
	checked = []string{"LC_ALL", "LC_MESSAGES", "LANG"}
)

func init() {
	key = "LANG"
	for _, k := range checked {
		if os.Getenv(k) != "" {
			key = k
			break
		}
	}
	old, hadOld = os.LookupEnv(key)
	switch old {
	case "", "C", "POSIX", "C.UTF-8", "C.utf8":
		os.Setenv(key, "en_US.UTF-8")
	default:
		key = ""
	}
}

// Restore puts the environment back as it was before this package's init.
func Restore() {
	if key == "" {
		return
	}
	if hadOld {
		os.Setenv(key, old)
	} else {
		os.Unsetenv(key)
	}
	key = ""
}
