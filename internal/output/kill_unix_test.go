//go:build unix

package output

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestSIGKILLAtEveryStep kills a real build process with SIGKILL before
// each step of its Commit: nothing of the build runs after the signal,
// and the kernel, not gen, releases its lock. The output is whole, and
// the next build removes what the killed one left.
func TestSIGKILLAtEveryStep(t *testing.T) {
	for _, step := range []string{stepSwap, stepRemoveBundle, stepRemoveOld, stepSweep} {
		t.Run(step, func(t *testing.T) {
			dest := filepath.Join(t.TempDir(), "public")
			if err := build(t, dest, "old", Options{}); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestKilledChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), "GEN_TEST_KILL_AT="+step, "GEN_TEST_DEST="+dest)
			stdin, err := cmd.StdinPipe() // the child waits on it until killed
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stderr = os.Stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var got []string
			for lines := bufio.NewScanner(stdout); lines.Scan(); {
				if got = append(got, lines.Text()); lines.Text() == "at "+step {
					break
				}
			}
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			if len(got) == 0 || got[len(got)-1] != "at "+step {
				t.Fatalf("the child never reached %s: %q", step, got)
			}
			want := "new"
			if step == stepSwap {
				want = "old"
			}
			if v := version(t, dest); v != want {
				t.Fatalf("killed before %s: output is %q, want %q", step, v, want)
			}
			if err := build(t, dest, "next", Options{}); err != nil {
				t.Fatalf("build after the killed one: %v", err)
			}
			if v := version(t, dest); v != "next" {
				t.Fatalf("output is %q after the next build", v)
			}
			noLeftovers(t, dest)
		})
	}
}

// TestKilledChild is the build TestSIGKILLAtEveryStep kills: it says when
// it reaches the step, then waits to be killed.
func TestKilledChild(t *testing.T) {
	step, dest := os.Getenv("GEN_TEST_KILL_AT"), os.Getenv("GEN_TEST_DEST")
	if step == "" {
		t.Skip("run by TestSIGKILLAtEveryStep")
	}
	wait := func(at string) error {
		if at == step {
			os.Stdout.WriteString("at " + step + "\n")
			io.ReadAll(os.Stdin) // until killed
			t.Fatal("not killed")
		}
		return nil
	}
	if err := build(t, dest, "new", Options{kill: wait}); err != nil {
		t.Fatal(err)
	}
}

// TestBundlesRemovedUnderTheirLock: every bundle a build removes (a
// killed build's, a stale one where its own goes, the previous output's,
// strays) is removed while the build holds the lock of the bundles, as
// is every bundle made: a folder's key is an inode number, which a new
// folder may get as soon as the old one is gone.
func TestBundlesRemovedUnderTheirLock(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "public")
	root := BundleRoot(dest)
	var removed, unlocked []string
	opts := Options{removeAll: func(dir string) error {
		if filepath.Dir(dir) == root {
			removed = append(removed, dir)
			if unlock, ok := tryLock(root); ok {
				unlock()
				unlocked = append(unlocked, dir)
			}
		}
		return os.RemoveAll(dir)
	}}
	if err := build(t, dest, "first", opts); err != nil {
		t.Fatal(err)
	}
	killed := opts
	killed.kill = func(step string) error {
		if step == stepSwap {
			return errors.New("killed")
		}
		return nil
	}
	if err := build(t, dest, "killed", killed); err == nil {
		t.Fatal("the killed build committed")
	}
	if err := build(t, dest, "second", opts); err != nil {
		t.Fatal(err)
	}
	if v := version(t, dest); v != "second" {
		t.Fatalf("output is %q", v)
	}
	// Each build removes a stale bundle where its own goes, the second
	// the killed build's and the first's too.
	if len(removed) < 5 {
		t.Fatalf("%d bundles removed, want at least 5: %v", len(removed), removed)
	}
	if len(unlocked) > 0 {
		t.Errorf("removed without the lock of the bundles: %v", unlocked)
	}
	noLeftovers(t, dest)
}
