//go:build unix

package output

import (
	"cmp"
	"fmt"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// lock takes the lock of the folder dir, held until the returned func is
// called or the process ends, however it ends: that is how a later build
// tells a running build's folder from a killed one's.
func lock(dir string) (func(), error) {
	unlock, ok, err := flock(dir, false)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%s is locked by another build", dir)
	}
	return unlock, nil
}

// waitLock takes the lock of dir, waiting while another process (or
// another build of this one) holds it.
func waitLock(dir string) (func(), error) {
	unlock, _, err := flock(dir, true)
	return unlock, err
}

// tryLock takes the lock of dir if no process holds it.
func tryLock(dir string) (func(), bool) {
	unlock, ok, _ := flock(dir, false)
	return unlock, ok
}

// flock takes the lock of dir; without wait it reports false at once
// when another holds it.
func flock(dir string, wait bool) (func(), bool, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, false, err
	}
	how := unix.LOCK_EX
	if !wait {
		how |= unix.LOCK_NB
	}
	conn, err := f.SyscallConn()
	if err == nil {
		ctlErr := conn.Control(func(fd uintptr) {
			for err = unix.EINTR; err == unix.EINTR; {
				err = unix.Flock(int(fd), how)
			}
		})
		err = cmp.Or(ctlErr, err)
	}
	if err == unix.EWOULDBLOCK {
		f.Close()
		return nil, false, nil
	}
	if err != nil {
		f.Close()
		return nil, false, fmt.Errorf("locking %s: %w", dir, err)
	}
	return sync.OnceFunc(func() { f.Close() }), true, nil
}
