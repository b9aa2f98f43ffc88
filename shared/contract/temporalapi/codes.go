// Package temporalapi is the contract of stratos-temporal (stratos worker,
// and stratos run --engine temporal): its error codes.
package temporalapi

import "github.com/stratoscli/stratos/shared/contract/errcode"

// Error codes of stratos-temporal.
const (
	CodeConnection        = "temporal_connection"
	CodeConfig            = "temporal_config"
	CodeSubmit            = "temporal_submit"
	CodeRunFailed         = "temporal_run_failed"
	CodeWorkerFailed      = "temporal_worker_failed"
	CodeProxyFailed       = "temporal_proxy_failed"
	CodeInputTooLarge     = "temporal_input_too_large"
	CodeNoRunToServe      = "temporal_no_run"
	CodeEngineUnknown     = "engine_unknown"
	CodeRepositoryMissing = "temporal_repository"
	CodeRunNotFound       = "temporal_run_not_found"
	// CodeRepositoryRemote: the run needs a git remote (worktrees, or
	// --repo) and has none that answers.
	CodeRepositoryRemote = "temporal_repository_remote"
	// CodeRepositoryCredentials: the remote URL carries a credential,
	// which would travel in the run's payloads.
	CodeRepositoryCredentials = "temporal_repository_credentials"
	// CodePushRejected: the remote refused an agent branch's push (it
	// moved); the commit went to a ref of its own.
	CodePushRejected = "temporal_push_rejected"
	// CodePush: an agent's work could not be committed or pushed.
	CodePush = "temporal_push"
	// CodeAnswerTooLarge: an agent's answer is larger than a Temporal
	// payload may be; the worker that ran it kept it in a file.
	CodeAnswerTooLarge = "temporal_answer_too_large"
)

// Codes describes the error codes of stratos-temporal.
func Codes() []errcode.Code {
	return []errcode.Code{
		errcode.Failed(CodeConnection, "the Temporal server cannot be reached (TEMPORAL_ADDRESS), or refused the connection"),
		errcode.Usage(CodeConfig, "a Temporal connection setting (TEMPORAL_* variable or flag) is invalid, e.g. a TLS file that cannot be read"),
		errcode.Failed(CodeSubmit, "the run could not be started on Temporal"),
		errcode.Failed(CodeRunFailed, "the run's Temporal workflow failed or was terminated without the workflow's own result"),
		errcode.Failed(CodeWorkerFailed, "the worker stopped on an error (its Temporal connection or task queue)"),
		errcode.Failed(CodeProxyFailed, "the agent host of a Temporal run could not reach the run's workflow"),
		errcode.Usage(CodeInputTooLarge, "the run's input (stdin) is larger than a Temporal payload may be"),
		errcode.Usage(CodeNoRunToServe, "`stratos-temporal serve` was started outside a Temporal run"),
		errcode.Usage(CodeEngineUnknown, "`--engine` or settings.json's engine names no engine (local, temporal)"),
		errcode.Failed(CodeRunNotFound, "the Temporal server has no workflow of a run the record names (another server or namespace, or its history was removed)"),
		errcode.Usage(CodeRepositoryMissing, "the run's working directory does not exist on the worker that took the run's code, and the run names no remote to check it out from (or the checkout failed: the message names the remote and the commit)"),
		errcode.Usage(CodeRepositoryRemote, "a run on Temporal whose workflow uses worktrees, or that names --repo, has no git remote that answers (the message names it)"),
		errcode.Usage(CodeRepositoryCredentials, "the run's remote URL carries a credential (a password, or a user in an http(s) URL): it would travel in Temporal payloads"),
		errcode.Failed(CodePushRejected, "the remote refused an agent's worktree branch (another push moved it); the commit is on the remote under refs/stratos/rejected/"),
		errcode.Failed(CodePush, "a worker could not commit or push an agent's worktree changes to the run's remote"),
		errcode.Failed(CodeAnswerTooLarge, "an agent's answer is larger than a Temporal payload may be (2 MiB by default); the worker that ran it kept it in a file, which the message names"),
	}
}
