package sdk

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/buildapi"
	"github.com/stratoscli/stratos/shared/contract/toolchainapi"
	"github.com/stratoscli/stratos/shared/pkgjson"
	"github.com/stratoscli/stratos/shared/toolchain"
	"github.com/stratoscli/stratos/shared/version"
)

// InstalledDir is where a discovery root's one shared SDK lives.
func InstalledDir(root string) string {
	return filepath.Join(root, "node_modules", "@stratoscli", "stratos")
}

// InstalledVersion returns the version of the SDK installed in root, or ""
// when there is none (or its package.json is unreadable).
func InstalledVersion(root string) string {
	return readInstalled(root).Version
}

// installedPackage is what Stratos reads from an installed SDK's package.json.
type installedPackage struct {
	Version     string `json:"version"`
	ContentHash string `json:"stratosContentHash"`
}

func readInstalled(root string) installedPackage {
	var doc installedPackage
	data, err := os.ReadFile(filepath.Join(InstalledDir(root), "package.json"))
	if err != nil || json.Unmarshal(data, &doc) != nil {
		return installedPackage{}
	}
	return doc
}

// Current reports whether root holds exactly this CLI's SDK (its version and
// its files: development builds share a version) and a zod for it. Anything
// else makes the next preparation reinstall the SDK and rebuild the root.
// Files the SDK's stat cache vouches for are not read; Current never
// writes that cache (listing stays read-only).
func Current(root string) bool { return current(root, newIntegrity(root)) }

func current(root string, c *integrity) bool {
	if !c.packageCurrent() {
		return false
	}
	if _, err := os.Stat(filepath.Join(root, "node_modules", "zod", "package.json")); err != nil {
		return false
	}
	return c.firstDamaged() == ""
}

// CurrentRecorded is Current for builds and runs: when the SDK is current,
// what the check had to read is recorded in the SDK's stat cache, so that
// later checks (`stratos list`, `run`) need not read those files again. Files
// changed in the last two seconds are not recorded (racily clean), so the
// build after the one that installed the SDK usually records it. The error
// is about the cache only: the cache is an optimization, current stands.
func CurrentRecorded(root string) (bool, error) {
	c := newIntegrity(root)
	if !current(root, c) {
		return false, nil
	}
	return true, c.save()
}

// currentLogged is CurrentRecorded with a cache that cannot be written
// logged, not returned.
func currentLogged(root string, log hclog.Logger) bool {
	ok, err := CurrentRecorded(root)
	if err != nil {
		log.Debug("the SDK's stat cache was not written", "root", root, "error", err)
	}
	return ok
}

// EnsureInstalled makes root (a discovery root) ready for workflows: its
// package.json declares "type": "module" (created when missing; a CommonJS
// root is an error, code package_commonjs), and its node_modules holds the
// SDK at exactly version.Version plus zod. A missing or different SDK is
// installed with npm; reinstalled tells the caller to invalidate that
// root's builds. Concurrent calls for one root are serialized.
func EnsureInstalled(ctx context.Context, tc *toolchain.Toolchain, root string, log hclog.Logger) (reinstalled bool, err error) {
	if log == nil {
		log = hclog.NewNullLogger()
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return false, clierr.New(buildapi.CodeRootNotFound, "discovery root %s is not a directory", root)
	}
	if _, err := pkgjson.EnsureModule(filepath.Join(root, pkgjson.FileName)); err != nil {
		return false, err
	}
	if currentLogged(root, log) {
		return false, nil
	}
	unlock, err := lockRoot(ctx, tc, root, log)
	if err != nil {
		return false, err
	}
	defer unlock()
	if currentLogged(root, log) {
		return false, nil // another process installed it while we waited
	}
	return true, install(ctx, tc, root, log)
}

// install runs one npm install in root with the SDK tarball and, unless the
// root's package.json already declares its own zod, the pinned zod. zod is
// named explicitly because the SDK's peer dependency alone makes npm fetch
// zod's metadata anyway; naming it pins the version it gets. --no-save keeps
// a machine-specific tarball path out of the root's package.json and lock: a
// later plain `npm install` may prune the SDK, and the next Stratos command
// then finds it missing and installs it again.
func install(ctx context.Context, tc *toolchain.Toolchain, root string, log hclog.Logger) error {
	had := InstalledVersion(root)
	tarball, err := writeTarball(tc)
	if err != nil {
		return err
	}
	args := []string{"install", "--no-audit", "--no-fund", "--no-update-notifier", "--no-save", "--prefer-offline", tarball}
	declares, err := declaresZod(root)
	if err != nil {
		return err
	}
	if !declares {
		args = append(args, "zod@"+toolchain.ZodVersion)
	}
	installed := readInstalled(root)
	switch damaged := Damage(root); {
	case had == "":
		log.Info(fmt.Sprintf("installing %s %s into %s", PackageName, version.Version, root))
	case installed.Version == version.Version && installed.ContentHash == ContentHash() && damaged != "":
		log.Warn(fmt.Sprintf("reinstalling %s %s in %s: its installed files were changed or removed (%s differs from this Stratos build's)", PackageName, had, root, damaged))
	case had == version.Version:
		log.Info(fmt.Sprintf("updating %s %s in %s: its files differ from this Stratos build's", PackageName, had, root))
	default:
		log.Info(fmt.Sprintf("replacing %s %s with %s in %s", PackageName, had, version.Version, root))
	}
	// npm trusts its hidden lockfile (node_modules/.package-lock.json) over
	// the package folders, so a changed or damaged SDK folder can look "up to
	// date" to it. The folder is Stratos's own: remove it so npm must place it.
	if err := os.RemoveAll(InstalledDir(root)); err != nil {
		return clierr.New(buildapi.CodeSDKInstallFailed, "remove the old SDK %s: %v", InstalledDir(root), err).Wrap(err)
	}
	if err := tc.RunNPM(ctx, log, root, args...); err != nil {
		return err // npm's own message, naming the root
	}
	if got := readInstalled(root); got.Version != version.Version || got.ContentHash != ContentHash() {
		return clierr.New(buildapi.CodeSDKInstallFailed, "npm install in %s finished, but %s holds version %q (content %.12s), not %s (content %.12s)",
			root, InstalledDir(root), got.Version, got.ContentHash, version.Version, ContentHash())
	}
	if !Current(root) {
		return clierr.New(buildapi.CodeSDKInstallFailed, "npm install in %s finished without installing zod, which the SDK needs: add zod@^4 to %s", root, filepath.Join(root, pkgjson.FileName))
	}
	return nil
}

// declaresZod reports whether root's package.json lists zod itself; then the
// author's version is kept.
func declaresZod(root string) (bool, error) {
	path := filepath.Join(root, pkgjson.FileName)
	data, err := pkgjson.Read(path)
	if err != nil {
		return false, clierr.New(buildapi.CodePackageJSONUnreadable, "%v", err).Wrap(err) // names the path
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return false, clierr.New(buildapi.CodePackageJSONInvalid, "%s is not a valid package.json: %v", path, err).Wrap(err)
	}
	for _, field := range []string{"dependencies", "devDependencies", "optionalDependencies"} {
		var deps map[string]json.RawMessage
		if json.Unmarshal(doc[field], &deps) == nil && deps["zod"] != nil {
			return true, nil
		}
	}
	return false, nil
}

// writeTarball writes the SDK tarball into <toolchain>/sdk/ (atomically: a
// concurrent npm must never read half a file) and returns its path.
func writeTarball(tc *toolchain.Toolchain) (string, error) {
	dir := filepath.Join(tc.Dir, "sdk")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", clierr.New(toolchainapi.CodeToolchainDir, "create %s: %v", dir, err).Wrap(err)
	}
	var buf bytes.Buffer
	if err := Tarball(&buf); err != nil {
		return "", err
	}
	dest := filepath.Join(dir, TarballFile())
	if old, err := os.ReadFile(dest); err == nil && bytes.Equal(old, buf.Bytes()) {
		return dest, nil
	}
	if err := atomicfile.WriteFile(dest, buf.Bytes(), atomicfile.Public); err != nil {
		return "", clierr.New(toolchainapi.CodeToolchainDir, "%v", err).Wrap(err)
	}
	return dest, nil
}

// lockRoot serializes SDK installs into one root. The lock file lives in the
// toolchain directory, keyed by the root's path, so that nothing is added to
// the root (npm owns node_modules).
func lockRoot(ctx context.Context, tc *toolchain.Toolchain, root string, log hclog.Logger) (func(), error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(abs))
	dir := filepath.Join(tc.Dir, "locks")
	if err := os.MkdirAll(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, clierr.New(toolchainapi.CodeToolchainDir, "create %s: %v", dir, err).Wrap(err)
	}
	fl := flock.New(filepath.Join(dir, "sdk-"+hex.EncodeToString(sum[:8])+".lock"))
	ok, err := fl.TryLock()
	if err == nil && !ok {
		log.Info("waiting for another Stratos process installing the SDK", "root", root)
		ok, err = fl.TryLockContext(ctx, 200*time.Millisecond)
	}
	if err != nil || !ok {
		if err == nil {
			err = ctx.Err()
		}
		return nil, clierr.New(buildapi.CodeSDKLocked, "lock %s for %s: %v", fl.Path(), root, err).Wrap(err)
	}
	return func() { _ = fl.Unlock() }, nil
}
