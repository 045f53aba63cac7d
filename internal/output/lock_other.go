//go:build !unix

package output

// lock has no lock to take where flock is missing; tryLock then never
// succeeds, so killed builds' folders are left for the user to remove.
func lock(dir string) (func(), error) { return func() {}, nil }

func tryLock(dir string) (func(), bool) { return nil, false }

// waitLock has nothing to wait for: bundle keys there are random ids
// (key_other.go), never reused.
func waitLock(dir string) (func(), error) { return func() {}, nil }
