// Package sdk embeds the TypeScript SDK (@stratoscli/stratos) that workflow
// code imports, installs it into discovery roots and loads workflow
// definitions through it.
//
// The compiled JavaScript and declarations in dist/ are committed (so that
// `go install` users need no TypeScript compiler) and kept in step with
// src/ by a test; scripts/build-sdk regenerates them. The package's version
// is always the CLI's: shared/version.Version.
package sdk

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sync"
	"time"

	"github.com/stratoscli/stratos/shared/toolchain"
	"github.com/stratoscli/stratos/shared/version"
)

// PackageName is the SDK's npm package name.
const PackageName = "@stratoscli/stratos"

//go:embed dist
var dist embed.FS

// DistFiles returns the SDK's compiled files as this CLI embeds them, under
// "dist/": what an install puts in the package directory beside its
// package.json (PackageJSON).
func DistFiles() fs.FS { return dist }

// packageSource is the SDK's checked-in package.json: the one source of its
// published fields (exports, peer dependencies, ...). Its development-only
// fields (private, scripts, devDependencies) are not published.
//
//go:embed package.json
var packageSource []byte

// packageJSON is the published part of the SDK's package.json. zod is a peer
// dependency: the one zod in the discovery root serves both the SDK and the
// workflows, so zod's types and registries are shared (EnsureInstalled
// installs it alongside).
type packageJSON struct {
	Name             string            `json:"name"`
	Version          string            `json:"version"`
	Description      string            `json:"description"`
	Type             string            `json:"type"`
	Exports          json.RawMessage   `json:"exports"`
	Types            string            `json:"types"`
	Files            []string          `json:"files"`
	PeerDependencies map[string]string `json:"peerDependencies"`
	Engines          map[string]string `json:"engines"`
	// ContentHash identifies the SDK's files: development builds share a
	// version, so the version alone cannot tell an outdated install.
	ContentHash string `json:"stratosContentHash"`
}

// PackageJSON returns the SDK's package.json as published: the checked-in
// one's published fields at version.Version, with the node engine and the
// content hash.
func PackageJSON() []byte {
	var doc packageJSON
	if err := json.Unmarshal(packageSource, &doc); err != nil {
		panic(err) // the embedded package.json is checked by the tests
	}
	doc.Version = version.Version
	doc.Engines = map[string]string{"node": fmt.Sprintf(">=%d", toolchain.NodeMajor)}
	doc.ContentHash = ContentHash()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		panic(err) // a fixed, valid document: cannot fail
	}
	return buf.Bytes()
}

// ContentHash is the hex SHA-256 over the checked-in package.json and the
// embedded dist files (names and contents, in path order): it changes
// whenever the SDK's code or its exports do. It is computed once per
// process: every check of an installed SDK compares with it.
func ContentHash() string { return contentHash() }

// contentHash is a constant of the binary, computed on first use.
var contentHash = sync.OnceValue(computeContentHash)

func computeContentHash() string {
	h := sha256.New()
	fmt.Fprintf(h, "package.json %d\n", len(packageSource))
	h.Write(packageSource)
	err := fs.WalkDir(dist, "dist", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := dist.ReadFile(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", p, len(data))
		h.Write(data)
		return nil
	})
	if err != nil {
		panic(err) // the embedded files are always readable
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TarballName is the file name npm would give the SDK's tarball.
func TarballName() string { return "stratoscli-stratos-" + version.Version + ".tgz" }

// TarballFile is the name the tarball is kept under in <toolchain>/sdk: the
// npm name with the content hash, so that Stratos binaries of one version
// but different SDK files (development builds) that share a toolchain
// directory never install each other's tarball.
func TarballFile() string {
	return "stratoscli-stratos-" + version.Version + "-" + ContentHash()[:12] + ".tgz"
}

// npmEpoch is the timestamp npm itself gives every entry of a packed
// tarball, so that the same contents always make the same bytes.
var npmEpoch = time.Date(1985, time.October, 26, 8, 15, 0, 0, time.UTC)

// Tarball writes the SDK as an npm package tarball (package/package.json and
// package/dist/…) to w. The output is deterministic: sorted entries, fixed
// times, owners and modes.
func Tarball(w io.Writer) error {
	gz := gzip.NewWriter(w) // zero header: no name, no time
	tw := tar.NewWriter(gz)
	if err := addFile(tw, "package/package.json", PackageJSON()); err != nil {
		return err
	}
	err := fs.WalkDir(dist, "dist", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := dist.ReadFile(p)
		if err != nil {
			return err
		}
		return addFile(tw, path.Join("package", p), data)
	})
	if err != nil {
		return fmt.Errorf("write the SDK tarball: %w", err)
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func addFile(tw *tar.Writer, name string, data []byte) error {
	hdr := &tar.Header{
		Typeflag: tar.TypeReg,
		Name:     name,
		Mode:     0o644,
		Size:     int64(len(data)),
		ModTime:  npmEpoch,
		Format:   tar.FormatUSTAR,
	}
	if err := tw.WriteHeader(hdr); err != nil {
		return fmt.Errorf("write the SDK tarball: %s: %w", name, err)
	}
	_, err := tw.Write(data)
	return err
}
