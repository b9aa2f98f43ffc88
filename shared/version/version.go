// Package version holds the single version of Stratos. The CLI binaries and
// the TypeScript SDK (@stratoscli/stratos) share it: a discovery root's SDK
// must match it exactly, and it is part of every workflow's freshness key.
package version

// Version is the release version of every Stratos binary and of the SDK.
const Version = "0.1.0"
