// Package sdktest places this CLI's SDK into a discovery root the way an
// install leaves it, without npm: for tests and benchmarks that need a root
// whose SDK is current (sdk.Current) without installing anything.
package sdktest

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/sdk"
)

// zodPackage is the one file of zod that sdk.Current looks for.
const zodPackage = `{"name": "zod", "version": "4.0.0", "type": "module"}` + "\n"

// Place writes the SDK's package.json and dist/ files into
// root/node_modules/@stratoscli/stratos/ and a zod package.json beside it.
func Place(root string) error {
	dir := sdk.InstalledDir(root)
	if err := write(filepath.Join(dir, "package.json"), sdk.PackageJSON()); err != nil {
		return err
	}
	err := fs.WalkDir(sdk.DistFiles(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(sdk.DistFiles(), p)
		if err != nil {
			return err
		}
		return write(filepath.Join(dir, filepath.FromSlash(p)), data)
	})
	if err != nil {
		return err
	}
	return write(filepath.Join(root, "node_modules", "zod", "package.json"), []byte(zodPackage))
}

func write(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}
