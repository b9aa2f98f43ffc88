package wrappergen

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/sdk"
)

// installSDK unpacks the real SDK package, the tarball Stratos installs into
// every discovery root, into dir (<root>/node_modules/@stratoscli/stratos).
// Unpacking instead of `npm install` keeps the test offline; the wrappers
// need only the SDK's declarations, not zod's runtime.
func installSDK(t *testing.T, dir string) {
	t.Helper()
	var tgz bytes.Buffer
	if err := sdk.Tarball(&tgz); err != nil {
		t.Fatal(err)
	}
	gz, err := gzip.NewReader(&tgz)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	found := false
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		rel, ok := strings.CutPrefix(hdr.Name, "package/")
		if !ok || hdr.Typeflag != tar.TypeReg || strings.Contains(rel, "..") {
			t.Fatalf("unexpected SDK tarball entry %q", hdr.Name)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, filepath.FromSlash(rel)), string(data))
		found = found || rel == "dist/index.d.ts"
	}
	if !found {
		t.Fatal("the SDK tarball has no dist/index.d.ts")
	}
}
