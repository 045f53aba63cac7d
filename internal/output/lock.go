package output

// Lock takes the lock of the folder dir for a writer other than a build
// (gen import takes content/'s), waiting while another process holds it.
// It is held until the returned func is called or the process ends,
// however it ends, so a killed writer never leaves it taken.
func Lock(dir string) (func(), error) { return waitLock(dir) }
