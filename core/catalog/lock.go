package catalog

import "github.com/gofrs/flock"

// lockFile takes an exclusive lock on the lock file beside path (lockName:
// flock(2), LockFileEx on Windows), waiting for it; the lock goes away with
// the process if it dies.
func lockFile(path string) (unlock func(), err error) {
	l := flock.New(lockName(path))
	if err := l.Lock(); err != nil {
		return nil, err
	}
	return func() { _ = l.Unlock() }, nil
}
