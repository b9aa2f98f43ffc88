package sdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/sdk"
	"github.com/stratoscli/stratos/shared/toolchain"
	"github.com/stratoscli/stratos/shared/toolchain/toolchaintest"
	"github.com/stratoscli/stratos/shared/version"
)

func TestEnsureInstalled(t *testing.T) {
	tc := toolchaintest.Ensure(t)
	log := toolchaintest.Logger(t)
	ctx := context.Background()
	root := t.TempDir()

	reinstalled, err := sdk.EnsureInstalled(ctx, tc, root, log)
	if err != nil || !reinstalled {
		t.Fatalf("first EnsureInstalled = %v, %v; want true, nil", reinstalled, err)
	}
	if got := sdk.InstalledVersion(root); got != version.Version {
		t.Fatalf("installed SDK version %q, want %s", got, version.Version)
	}
	assertZod(t, root, toolchain.ZodVersion)
	// The root's package.json is a module package and records nothing else:
	// the tarball path is machine-specific.
	if got := readFile(t, filepath.Join(root, "package.json")); got != "{\n  \"type\": \"module\"\n}\n" {
		t.Errorf("root package.json = %q", got)
	}
	if _, err := os.Stat(filepath.Join(tc.Dir, "sdk", sdk.TarballFile())); err != nil {
		t.Errorf("the SDK tarball is not kept in the toolchain directory: %v", err)
	}

	reinstalled, err = sdk.EnsureInstalled(ctx, tc, root, log)
	if err != nil || reinstalled {
		t.Fatalf("second EnsureInstalled = %v, %v; want false, nil (the SDK is current)", reinstalled, err)
	}

	// An SDK of another version (an older or newer CLI installed it) is replaced.
	pkgPath := filepath.Join(sdk.InstalledDir(root), "package.json")
	old := strings.Replace(readFile(t, pkgPath), `"version": "`+version.Version+`"`, `"version": "0.0.1"`, 1)
	writeFile(t, pkgPath, old)
	if sdk.InstalledVersion(root) != "0.0.1" {
		t.Fatal("test setup: could not fake an old SDK")
	}
	reinstalled, err = sdk.EnsureInstalled(ctx, tc, root, log)
	if err != nil || !reinstalled {
		t.Fatalf("EnsureInstalled over SDK 0.0.1 = %v, %v; want true, nil", reinstalled, err)
	}
	if got := sdk.InstalledVersion(root); got != version.Version {
		t.Errorf("after reinstall the SDK is %q, want %s", got, version.Version)
	}

	// The same version with other files (a development build installed it)
	// is not current either: the runtime must match this binary's.
	other := strings.Replace(readFile(t, pkgPath), `"stratosContentHash": "`+sdk.ContentHash()+`"`, `"stratosContentHash": "0000"`, 1)
	writeFile(t, pkgPath, other)
	if sdk.Current(root) {
		t.Fatal("an SDK with other content counts as current")
	}
	reinstalled, err = sdk.EnsureInstalled(ctx, tc, root, log)
	if err != nil || !reinstalled || !sdk.Current(root) {
		t.Fatalf("EnsureInstalled over other SDK content = %v, %v (current %v); want true, nil, true", reinstalled, err, sdk.Current(root))
	}
}

func TestEnsureInstalledKeepsTheRootsOwnZod(t *testing.T) {
	tc := toolchaintest.Ensure(t)
	root := t.TempDir()
	manifest := "{\n  \"name\": \"my-workflows\",\n  \"dependencies\": {\n    \"zod\": \"4.6.6\"\n  }\n}\n"
	writeFile(t, filepath.Join(root, "package.json"), manifest)
	if _, err := sdk.EnsureInstalled(context.Background(), tc, root, toolchaintest.Logger(t)); err != nil {
		t.Fatal(err)
	}
	assertZod(t, root, "4.6.6")
	want := "{\n  \"type\": \"module\",\n  \"name\": \"my-workflows\",\n  \"dependencies\": {\n    \"zod\": \"4.6.6\"\n  }\n}\n"
	if got := readFile(t, filepath.Join(root, "package.json")); got != want {
		t.Errorf("root package.json =\n%s\nwant\n%s", got, want)
	}
}

func TestEnsureInstalledRejectsCommonJSRoot(t *testing.T) {
	tc := toolchaintest.Ensure(t)
	root := t.TempDir()
	manifest := `{"name":"legacy","type":"commonjs"}`
	writeFile(t, filepath.Join(root, "package.json"), manifest)
	_, err := sdk.EnsureInstalled(context.Background(), tc, root, toolchaintest.Logger(t))
	var ce *clierr.Error
	if !errors.As(err, &ce) || ce.Code != "package_commonjs" || !strings.Contains(ce.Message, filepath.Join(root, "package.json")) {
		t.Fatalf("error = %v, want package_commonjs naming the file", err)
	}
	if readFile(t, filepath.Join(root, "package.json")) != manifest {
		t.Error("the CommonJS package.json was modified")
	}
	if _, err := os.Stat(filepath.Join(root, "node_modules")); !os.IsNotExist(err) {
		t.Error("npm ran in a root that was rejected")
	}
}

func TestFindShadowingSDK(t *testing.T) {
	root := t.TempDir()
	wf := filepath.Join(root, "group", "review")
	if err := os.MkdirAll(filepath.Join(root, "node_modules", "@stratoscli", "stratos"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(wf, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := sdk.FindShadowingSDK(root, wf); err != nil {
		t.Fatalf("only the root's SDK: %v", err)
	}
	for _, dir := range []string{filepath.Join(root, "group"), wf} {
		shadow := filepath.Join(dir, "node_modules", "@stratoscli", "stratos")
		if err := os.MkdirAll(shadow, 0o755); err != nil {
			t.Fatal(err)
		}
		err := sdk.FindShadowingSDK(root, wf)
		var ce *clierr.Error
		if !errors.As(err, &ce) || ce.Code != "sdk_shadowed" || !strings.Contains(ce.Message, shadow) {
			t.Errorf("with %s: error = %v, want sdk_shadowed naming it", shadow, err)
		}
		os.RemoveAll(filepath.Join(dir, "node_modules"))
	}
}

func assertZod(t *testing.T, root, want string) {
	t.Helper()
	var pkg struct{ Version string }
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(root, "node_modules", "zod", "package.json"))), &pkg); err != nil {
		t.Fatal(err)
	}
	if pkg.Version != want {
		t.Errorf("zod in %s is %s, want %s", root, pkg.Version, want)
	}
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
