package sdk

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"io/fs"
	"path"
	"slices"
	"testing"

	"github.com/stratoscli/stratos/shared/version"
)

func TestTarball(t *testing.T) {
	var a, b bytes.Buffer
	if err := Tarball(&a); err != nil {
		t.Fatal(err)
	}
	if err := Tarball(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two tarballs of the same SDK differ: the output must be deterministic")
	}

	gz, err := gzip.NewReader(&a)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	files := map[string][]byte{}
	var names []string
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if hdr.Typeflag != tar.TypeReg || hdr.Mode != 0o644 || !hdr.ModTime.Equal(npmEpoch) || hdr.Uid != 0 {
			t.Errorf("%s: type %c mode %o time %v uid %d", hdr.Name, hdr.Typeflag, hdr.Mode, hdr.ModTime, hdr.Uid)
		}
		data, _ := io.ReadAll(tr)
		files[hdr.Name] = data
		names = append(names, hdr.Name)
	}

	var want []string
	fs.WalkDir(dist, "dist", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			want = append(want, path.Join("package", p))
		}
		return nil
	})
	want = append([]string{"package/package.json"}, want...)
	if !slices.Equal(names, want) {
		t.Errorf("tarball entries:\n%q\nwant:\n%q", names, want)
	}
	for _, required := range []string{"package/dist/index.js", "package/dist/index.d.ts", "package/dist/loader.js", "package/dist/runner.js"} {
		if _, ok := files[required]; !ok {
			t.Errorf("tarball lacks %s", required)
		}
	}

	var pkg struct {
		Name    string                       `json:"name"`
		Version string                       `json:"version"`
		Type    string                       `json:"type"`
		Exports map[string]map[string]string `json:"exports"`
		Peers   map[string]string            `json:"peerDependencies"`
		Content string                       `json:"stratosContentHash"`
	}
	if err := json.Unmarshal(files["package/package.json"], &pkg); err != nil {
		t.Fatal(err)
	}
	if pkg.Name != PackageName || pkg.Version != version.Version || pkg.Type != "module" {
		t.Errorf("package.json: %+v", pkg)
	}
	if pkg.Exports["."]["default"] != "./dist/index.js" || pkg.Exports["./loader"]["default"] != "./dist/loader.js" ||
		pkg.Exports["./runner"]["default"] != "./dist/runner.js" {
		t.Errorf("exports: %v", pkg.Exports)
	}
	if pkg.Peers["zod"] != "^4.0.0" {
		t.Errorf("peerDependencies: %v", pkg.Peers)
	}
	if len(pkg.Content) != 64 || pkg.Content != ContentHash() {
		t.Errorf("stratosContentHash = %q, want ContentHash() %q", pkg.Content, ContentHash())
	}
	if TarballFile() != "stratoscli-stratos-"+version.Version+"-"+ContentHash()[:12]+".tgz" {
		t.Errorf("TarballFile() = %s", TarballFile())
	}
	if TarballName() != "stratoscli-stratos-"+version.Version+".tgz" {
		t.Errorf("TarballName() = %s", TarballName())
	}
}
