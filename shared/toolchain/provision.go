package toolchain

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/toolchainapi"
	"github.com/stratoscli/stratos/shared/version"
)

// nodeInTarball is the one file Stratos takes from the registry package: the
// rest (headers, docs) is 70 MB Stratos never uses.
const nodeInTarball = "package/bin/node"

// provisionNode downloads pkg from the npm registry into home (…/bin/node),
// verifying the tarball against the registry's sha512 integrity. The binary
// is written into a temporary directory that is renamed into place only when
// complete and verified, so an interrupted download never looks installed.
func provisionNode(ctx context.Context, opts Options, dir string, pkg NodePackage, home, pathNote string) error {
	log := opts.log()
	unlock, err := lockDir(ctx, dir, log)
	if err != nil {
		return err
	}
	defer unlock()
	if isExecutableFile(filepath.Join(home, "bin", "node")) {
		return nil // another process provisioned it while we waited
	}
	log.Info(fmt.Sprintf("provisioning node %s into %s", pkg.Version, home), "reason", pathNote)

	registry := registryURL(ctx, opts)
	dist, err := fetchDist(ctx, opts.httpClient(), registry, pkg)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(dir, tempPrefix+"node-")
	if err != nil {
		return clierr.New(toolchainapi.CodeToolchainDir, "create a temporary directory in %s: %v", dir, err).Wrap(err)
	}
	defer os.RemoveAll(tmp) // a no-op after the rename below
	if err := downloadNode(ctx, opts.httpClient(), dist, filepath.Join(tmp, "bin", "node")); err != nil {
		return err
	}
	if _, _, err := nodeVersion(ctx, filepath.Join(tmp, "bin", "node")); err != nil {
		return clierr.New(toolchainapi.CodeToolchainDownloadFailed, "the node binary downloaded from %s does not run on this machine: %v", dist.Tarball, err).Wrap(err)
	}
	if err := os.Rename(tmp, home); err != nil {
		return clierr.New(toolchainapi.CodeToolchainDir, "move the provisioned node into %s: %v", home, err).Wrap(err)
	}
	return nil
}

func (o Options) httpClient() *http.Client {
	if o.HTTPClient != nil {
		return o.HTTPClient
	}
	return http.DefaultClient
}

// packageDist is the "dist" object of a registry version document.
type packageDist struct {
	Tarball   string `json:"tarball"`
	Integrity string `json:"integrity"`
}

// fetchDist reads <registry>/<name>/<version>, the registry's document for
// one version, which names the tarball and its integrity hash.
func fetchDist(ctx context.Context, client *http.Client, registry string, pkg NodePackage) (packageDist, error) {
	docURL := strings.TrimRight(registry, "/") + "/" + url.PathEscape(pkg.Name) + "/" + url.PathEscape(pkg.Version)
	body, err := httpGet(ctx, client, docURL)
	if err != nil {
		return packageDist{}, err
	}
	defer body.Close()
	var doc struct {
		Dist packageDist `json:"dist"`
	}
	if err := json.NewDecoder(io.LimitReader(body, 4<<20)).Decode(&doc); err != nil {
		return packageDist{}, downloadError(docURL, fmt.Errorf("decode the version document: %w", err))
	}
	if doc.Dist.Tarball == "" || doc.Dist.Integrity == "" {
		return packageDist{}, downloadError(docURL, errors.New("the version document has no dist.tarball or dist.integrity"))
	}
	return doc.Dist, nil
}

func httpGet(ctx context.Context, client *http.Client, u string) (io.ReadCloser, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, downloadError(u, err)
	}
	req.Header.Set("User-Agent", "stratos/"+version.Version)
	resp, err := client.Do(req)
	if err != nil {
		return nil, downloadError(u, err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, downloadError(u, fmt.Errorf("HTTP %s", resp.Status))
	}
	return resp.Body, nil
}

func downloadError(u string, err error) *clierr.Error {
	return clierr.New(toolchainapi.CodeToolchainDownloadFailed,
		"download %s: %v (Stratos downloads Node.js from the npm registry when no node >= %d is found; set %s or put a node >= %d on PATH to avoid it)",
		u, err, NodeMajor, EnvNode, NodeMajor).Wrap(err).WithDetails(map[string]any{"url": u})
}

// downloadNode streams the tarball through sha512 and gunzip/untar, writes
// only package/bin/node to dest, and fails unless the whole tarball matches
// dist.Integrity. dest is only trusted by the caller after a nil return.
func downloadNode(ctx context.Context, client *http.Client, dist packageDist, dest string) error {
	want, err := sha512Integrity(dist.Integrity)
	if err != nil {
		return downloadError(dist.Tarball, err)
	}
	body, err := httpGet(ctx, client, dist.Tarball)
	if err != nil {
		return err
	}
	defer body.Close()
	hash := sha512.New()
	stream := io.TeeReader(body, hash)
	found, err := extractFile(stream, nodeInTarball, dest)
	if err != nil {
		return downloadError(dist.Tarball, err)
	}
	// gzip and tar may stop before the end of the body; the hash covers all of it.
	if _, err := io.Copy(io.Discard, stream); err != nil {
		return downloadError(dist.Tarball, err)
	}
	if got := base64.StdEncoding.EncodeToString(hash.Sum(nil)); got != want {
		return clierr.New(toolchainapi.CodeToolchainDownloadFailed,
			"integrity check failed for %s: the registry says sha512-%s, the download is sha512-%s", dist.Tarball, want, got).
			WithDetails(map[string]any{"url": dist.Tarball, "expected": "sha512-" + want, "actual": "sha512-" + got})
	}
	if !found {
		return downloadError(dist.Tarball, fmt.Errorf("the tarball has no %s", nodeInTarball))
	}
	return nil
}

// sha512Integrity returns the base64 digest of the sha512 entry of an
// npm/SRI integrity string ("sha512-… sha1-…").
func sha512Integrity(integrity string) (string, error) {
	for _, f := range strings.Fields(integrity) {
		if d, ok := strings.CutPrefix(f, "sha512-"); ok {
			return d, nil
		}
	}
	return "", fmt.Errorf("dist.integrity %q has no sha512 hash", integrity)
}

// extractFile copies the tar.gz member named name from r to dest (mode 0755).
func extractFile(r io.Reader, name, dest string) (bool, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return false, fmt.Errorf("gunzip: %w", err)
	}
	tr := tar.NewReader(gz)
	found := false
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return found, nil
		}
		if err != nil {
			return false, fmt.Errorf("untar: %w", err)
		}
		if hdr.Name != name || hdr.Typeflag != tar.TypeReg {
			continue
		}
		if err := writeExecutable(dest, tr); err != nil {
			return false, err
		}
		found = true
	}
}

func writeExecutable(dest string, r io.Reader) error {
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(dest, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", dest, err)
	}
	return f.Close()
}
