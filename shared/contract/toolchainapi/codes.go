// Package toolchainapi is the contract of the toolchain (stratos-toolchain
// and every tool that provisions node, npm and TypeScript through
// shared/toolchain): its error codes.
package toolchainapi

import "github.com/stratoscli/stratos/shared/contract/errcode"

// Error codes of the toolchain.
const (
	CodeNodeNotFound            = "node_not_found"
	CodeNodeTooOld              = "node_too_old"
	CodeNpmNotFound             = "npm_not_found"
	CodeNpmFailed               = "npm_failed"
	CodeToolchainDir            = "toolchain_dir"
	CodeToolchainDownloadFailed = "toolchain_download_failed"
	CodeToolchainLocked         = "toolchain_locked"
	CodeToolchainBroken         = "toolchain_broken"
	CodeTypeScriptInstallFailed = "typescript_install_failed"
)

// Codes describes the error codes of the toolchain.
func Codes() []errcode.Code {
	return []errcode.Code{
		errcode.Failed(CodeNodeNotFound, "no usable node: $STRATOS_NODE is not an executable Node.js, or none could be provisioned"),
		errcode.Failed(CodeNodeTooOld, "the node found is older than the version Stratos needs"),
		errcode.Failed(CodeNpmNotFound, "no npm beside the node in use"),
		errcode.Failed(CodeNpmFailed, "npm exited with an error; the message carries the end of its output"),
		errcode.Failed(CodeToolchainDir, "the toolchain directory (~/.stratos/toolchain or $STRATOS_TOOLCHAIN_DIR) or a directory in it cannot be created or written"),
		errcode.Failed(CodeToolchainDownloadFailed, "downloading or checking the pinned node failed"),
		errcode.Failed(CodeToolchainLocked, "the toolchain lock cannot be taken"),
		errcode.Failed(CodeToolchainBroken, "the installed TypeScript is incomplete; remove the directory the message names"),
		errcode.Failed(CodeTypeScriptInstallFailed, "installing the pinned TypeScript failed, or it reports another version"),
	}
}
