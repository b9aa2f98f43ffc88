// Package discoverapi is the contract of finding workflows (stratos list,
// stratos-discover and every tool that resolves a workflow through
// shared/discovery): its error codes.
package discoverapi

import "github.com/stratoscli/stratos/shared/contract/errcode"

// Error codes of finding workflows.
const (
	CodeWorkflowNotFound = "workflow_not_found"
	CodeWorkflowInvalid  = "workflow_invalid"
	CodeCwdUnreadable    = "cwd_unreadable"
	CodeRootsUnresolved  = "roots_unresolved"
	CodeRootUnreadable   = "root_unreadable"
	CodeReadFailed       = "read_failed"
	CodeSettingsInvalid  = "settings_invalid"
)

// Codes describes the error codes of finding workflows.
func Codes() []errcode.Code {
	return []errcode.Code{
		errcode.Usage(CodeWorkflowNotFound, "no workflow of that name in the discovery roots, or the path is no workflow directory of a root"),
		errcode.Usage(CodeWorkflowInvalid, "the workflow's workflow.yaml has problems; `details` lists them with their problem codes"),
		errcode.Failed(CodeCwdUnreadable, "the working directory cannot be read"),
		errcode.Failed(CodeRootsUnresolved, "the discovery roots cannot be found (no home directory, an unreadable directory on the way up)"),
		errcode.Failed(CodeRootUnreadable, "a discovery root's workflows directory cannot be read; `details.dir` names it"),
		errcode.Failed(CodeReadFailed, "a workflow directory or its files cannot be read"),
		errcode.Usage(CodeSettingsInvalid, "~/.stratos/settings.json is not valid; the message names the file and the key"),
	}
}
