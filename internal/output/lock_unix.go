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
	unlock, ok, err := flock(dir)
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
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	conn, err := f.SyscallConn()
	if err == nil {
		ctlErr := conn.Control(func(fd uintptr) {
			for err = unix.Flock(int(fd), unix.LOCK_EX); err == unix.EINTR; {
				err = unix.Flock(int(fd), unix.LOCK_EX)
			}
		})
		err = cmp.Or(ctlErr, err)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	return sync.OnceFunc(func() { f.Close() }), nil
}

// tryLock takes the lock of dir if no process holds it.
func tryLock(dir string) (func(), bool) {
	unlock, ok, _ := flock(dir)
	return unlock, ok
}

func flock(dir string) (func(), bool, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, false, err
	}
	conn, err := f.SyscallConn()
	if err == nil {
		ctlErr := conn.Control(func(fd uintptr) { err = unix.Flock(int(fd), unix.LOCK_EX|unix.LOCK_NB) })
		if ctlErr != nil {
			err = ctlErr
		}
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
