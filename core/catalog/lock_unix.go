//go:build unix

package catalog

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock (flock) on path+".lock",
// waiting for it; the lock goes away with the process if it dies.
func lockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(lockName(path), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
