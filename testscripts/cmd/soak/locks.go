package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// lockFiles lists the lock files a run of the project can take: every
// *.lock under the project's discovery root (the root's build lock in
// .generated/) and under the private ~/.stratos, and the SDK install lock
// the toolchain keeps for the root (locks/sdk-<first 8 bytes of the
// SHA-256 of the root's path>.lock), when it exists. Stratos's locks are
// flock(2) locks: whoever holds one is a live process.
func lockFiles(root, stratosHome, toolchainDir string) []string {
	var out []string
	for _, dir := range []string{root, stratosHome} {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".lock") && d.Name() != "package-lock.json" {
				out = append(out, p)
			}
			return nil
		})
	}
	if p := sdkLock(toolchainDir, root); p != "" {
		if _, err := os.Stat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// sdkLock is the path of the toolchain's SDK install lock for root.
func sdkLock(toolchainDir, root string) string {
	if toolchainDir == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(toolchainDir, "locks", "sdk-"+hex.EncodeToString(sum[:8])+".lock")
}

// heldLocks returns the files among paths whose lock another process
// holds: each is opened and locked exclusively without waiting, and
// released at once. A file that is gone is not held.
func heldLocks(paths []string) ([]string, error) {
	var held []string
	for _, p := range paths {
		ok, err := lockFree(p)
		if err != nil {
			return held, err
		}
		if !ok {
			held = append(held, p)
		}
	}
	return held, nil
}

func lockFree(path string) (bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
