//go:build unix

package store

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes an advisory lock on f without waiting: shared, or exclusive.
// It reports false when another open file holds a conflicting lock. Locks
// belong to the open file, so two opens in one process exclude each other
// as two processes do, and the kernel releases a lock when its holder dies.
func tryLock(f *os.File, exclusive bool) (bool, error) {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		case !errors.Is(err, syscall.EINTR):
			return false, err
		}
	}
}

// unlock releases the lock tryLock took on f.
func unlock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
