// Package buildapi is the contract of stratos-build (build, describe,
// schema, clean, new and the prepare step stratos-run uses): its error
// codes, and the JSON result of `stratos-build prepare --json`.
package buildapi

import "github.com/stratoscli/stratos/shared/contract/errcode"

// Error codes of stratos-build, with those of the SDK install and the
// definition loader (shared/sdk, shared/pkgjson) that it returns.
const (
	CodeBuildFailed           = "build_failed"
	CodeCleanFailed           = "clean_failed"
	CodeScaffoldFailed        = "scaffold_failed"
	CodeNameInvalid           = "name_invalid"
	CodeWorkflowExists        = "workflow_exists"
	CodeNoProject             = "no_project"
	CodeLockFailed            = "lock_failed"
	CodeRootUnwritable        = "root_unwritable"
	CodeHomeUnresolved        = "home_unresolved"
	CodePackageJSONUnreadable = "package_json_unreadable"
	CodePackageJSONInvalid    = "package_json_invalid"
	CodePackageJSONWrite      = "package_json_write"
	CodePackageCommonJS       = "package_commonjs"
	CodePackageTypeInvalid    = "package_type_invalid"
	CodeRootNotFound          = "root_not_found"
	CodeSDKNotInstalled       = "sdk_not_installed"
	CodeSDKShadowed           = "sdk_shadowed"
	CodeSDKCompileFailed      = "sdk_compile_failed"
	CodeSDKInstallFailed      = "sdk_install_failed"
	CodeSDKLocked             = "sdk_locked"
	CodeDefinitionLoadFailed  = "definition_load_failed"
	CodeSchemaUnrepresentable = "schema_unrepresentable"
)

// Codes describes the error codes of stratos-build.
func Codes() []errcode.Code {
	return []errcode.Code{
		errcode.Failed(CodeBuildFailed, "one or more workflows failed to build; `details.results` has each workflow's reason and diagnostics"),
		errcode.Failed(CodeCleanFailed, "removing build output or the installed SDK failed"),
		errcode.Failed(CodeScaffoldFailed, "`stratos new` could not create the workflow's files"),
		errcode.Usage(CodeNameInvalid, "`stratos new`: the workflow name is not `^[a-z][a-z0-9-]{0,63}$`"),
		errcode.Usage(CodeWorkflowExists, "`stratos new`: the directory exists or the name is taken in the root"),
		errcode.Usage(CodeNoProject, "no `.stratos/` directory here or above, and no workflow named"),
		errcode.Failed(CodeLockFailed, "the root's build lock cannot be taken"),
		errcode.Failed(CodeRootUnwritable, "a directory of the discovery root cannot be created"),
		errcode.Failed(CodeHomeUnresolved, "the home directory (for ~/.stratos/settings.json) cannot be found"),
		errcode.Failed(CodePackageJSONUnreadable, "a package.json cannot be read"),
		errcode.Failed(CodePackageJSONInvalid, "a package.json is not valid JSON of the expected shape"),
		errcode.Failed(CodePackageJSONWrite, "a package.json cannot be written"),
		errcode.Failed(CodePackageCommonJS, "a package.json says `\"type\": \"commonjs\"`; Stratos needs ES modules"),
		errcode.Failed(CodePackageTypeInvalid, "a package.json's `type` is something other than `module`"),
		errcode.Failed(CodeRootNotFound, "the discovery root is not a directory"),
		errcode.Failed(CodeSDKNotInstalled, "the root's SDK is not installed; `stratos build` installs it"),
		errcode.Failed(CodeSDKShadowed, "another `@stratoscli/stratos` shadows the root's installed SDK"),
		errcode.Failed(CodeSDKCompileFailed, "compiling the SDK's sources failed"),
		errcode.Failed(CodeSDKInstallFailed, "installing the SDK into the root failed, or it did not install what was expected"),
		errcode.Failed(CodeSDKLocked, "the root's SDK lock cannot be taken"),
		errcode.Failed(CodeDefinitionLoadFailed, "node ended before reporting the workflow's definition, or reported something else"),
		errcode.Failed(CodeSchemaUnrepresentable, "an input or output schema cannot be represented as JSON Schema"),
	}
}

// Tool is the name of the binary this package is the contract of.
const Tool = "stratos-build"
