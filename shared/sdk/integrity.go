package sdk

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
)

// Damage compares the installed SDK of root with this CLI's, file by file,
// and returns the first installed file (relative to the package) that was
// changed or removed; "" when every file is intact. Its package.json alone
// cannot tell: it still names the right version and content hash after a
// file of dist/ was edited or deleted, and every run would then fail.
func Damage(root string) string {
	dir := InstalledDir(root)
	var damaged string
	_ = fs.WalkDir(dist, "dist", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		want, err := dist.ReadFile(p)
		if err != nil {
			return err
		}
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil || !bytes.Equal(got, want) {
			damaged = p
			return fs.SkipAll
		}
		return nil
	})
	return damaged
}

// Remove deletes the SDK installed in root (for `stratos clean --sdk`); the
// next preparation installs it again. It reports whether there was one.
func Remove(root string) (bool, error) {
	dir := InstalledDir(root)
	if _, err := os.Lstat(dir); err != nil {
		return false, nil
	}
	return true, os.RemoveAll(dir)
}
