//go:build !unix

package catalog

import (
	"errors"
	"io/fs"
	"os"
	"time"
)

// lockFile takes an exclusive lock by creating path+".lock" exclusively,
// waiting for it; a lock file older than staleLock (left by a crash) is
// taken over.
func lockFile(path string) (unlock func(), err error) {
	const staleLock = 10 * time.Second
	name := lockName(path)
	deadline := time.Now().Add(2 * staleLock)
	for {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			f.Close()
			return func() { os.Remove(name) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if st, err := os.Stat(name); err == nil && time.Since(st.ModTime()) > staleLock {
			os.Remove(name)
			continue
		}
		if time.Now().After(deadline) {
			return nil, err
		}
		time.Sleep(10 * time.Millisecond)
	}
}
