// Package runapi is the contract of stratos-run (stratos run, runs, test,
// serve and mcp serve): its error codes. A workflow's own errors keep the
// codes the runtime gave them (docs/running.md).
package runapi

import "github.com/stratoscli/stratos/shared/contract/errcode"

// Error codes of stratos-run.
const (
	CodeInputInvalid          = "input_invalid"
	CodeOverridesInvalid      = "overrides_invalid"
	CodeConfigInvalid         = "config_invalid"
	CodePrepareMismatch       = "prepare_mismatch"
	CodeRunRecordFailed       = "run_record_failed"
	CodeRunnerFailed          = "runner_failed"
	CodeBuildRecordUnreadable = "build_record_unreadable"
	CodeOutputSchemaMissing   = "output_schema_missing"
	CodeOutputSchemaInvalid   = "output_schema_invalid"
	CodeOutputValidation      = "output_validation"
	CodeRunNotFound           = "run_not_found"
	CodeRunAmbiguous          = "run_ambiguous"
	CodeRunsUnreadable        = "runs_unreadable"
	CodeRunNotRunning         = "run_not_running"
	CodeRunProcessUnconfirmed = "run_process_unconfirmed"
	CodeStopTimeout           = "stop_timeout"
	CodeStopFailed            = "stop_failed"
	CodeRunNotFinished        = "run_not_finished"
	CodeRunCrashed            = "run_crashed"
	CodeRunFailed             = "run_failed"
	CodeDetachFailed          = "detach_failed"
	CodeBudgetExceeded        = "budget_exceeded"
	CodeBudgetInvalid         = "budget_invalid"
	CodeTestCasesInvalid      = "test_cases_invalid"
	CodeNoTestCases           = "no_test_cases"
	CodeServeListenFailed     = "serve_listen_failed"
	CodeServeRequestInvalid   = "serve_request_invalid"
	CodeServeWriteRefused     = "serve_write_refused"
	CodeServeReadRefused      = "serve_read_refused"
	// CodeMCPAuthRequired: an MCP server the workflow declares with oauth
	// has no login with five minutes left (docs/mcp.md).
	CodeMCPAuthRequired = "mcp_auth_required"
	// CodeInputTooLarge: --input or --overrides holds more than its size
	// limit (docs/files.md).
	CodeInputTooLarge = "input_too_large"
	// CodeInputValidation: the input does not match the workflow's input
	// schema (the runtime's Zod check; `run --detach` and `mcp serve`'s
	// run_workflow check it first).
	CodeInputValidation = "input_validation"
	// CodeListenNotLoopback: `stratos mcp serve --http` was given an
	// address that is not a loopback address.
	CodeListenNotLoopback = "listen_not_loopback"
	// CodeMCPTokenInvalid: $STRATOS_MCP_TOKEN, the bearer token of
	// `stratos mcp serve --http`, is too short to be a secret.
	CodeMCPTokenInvalid = "mcp_token_invalid"
	// CodeListenFailed: `stratos mcp serve --http` cannot listen there.
	CodeListenFailed = "listen_failed"
	// CodeResumeNotResumable: `stratos runs resume` was asked to resume a
	// run that succeeded, is still running or is being resumed.
	CodeResumeNotResumable = "resume_not_resumable"
	// CodeResumeNoJournal: the run to resume has no usable journal.
	CodeResumeNoJournal = "resume_no_journal"
	// CodeResumeCodeChanged: `runs resume --strict` found that a
	// workflow's code changed since the run.
	CodeResumeCodeChanged = "resume_code_changed"
)

// Codes describes the error codes of stratos-run.
func Codes() []errcode.Code {
	return []errcode.Code{
		errcode.Usage(CodeInputInvalid, "`--input` is not readable or not valid JSON"),
		errcode.Usage(CodeOverridesInvalid, "`--overrides` is not readable, not valid JSON, names an agent configuration the workflow does not declare, or gives an agent setting an invalid value (`details.problems` lists each)"),
		errcode.Failed(CodeConfigInvalid, "a workflow.yaml's agents or decision section cannot be passed to the runtime"),
		errcode.Failed(CodePrepareMismatch, "stratos-build prepared another workflow than the one asked for (a bug)"),
		errcode.Failed(CodeRunRecordFailed, "the run record cannot be started; `details.path` names the file or directory"),
		errcode.Failed(CodeRunnerFailed, "node could not start, or ended without reporting how the workflow ended"),
		errcode.Failed(CodeBuildRecordUnreadable, "the workflow's build record cannot be read to check its output"),
		errcode.Failed(CodeOutputSchemaMissing, "the workflow's build record has no output schema; build again"),
		errcode.Failed(CodeOutputSchemaInvalid, "the output schema in the build record does not compile"),
		errcode.Failed(CodeOutputValidation, "the workflow returned output that does not match its output schema; `details.issues` lists every failing field"),
		errcode.Usage(CodeRunNotFound, "`stratos runs`: no run with that ID or prefix"),
		errcode.Usage(CodeRunAmbiguous, "`stratos runs`: the ID prefix matches more than one run"),
		errcode.Failed(CodeRunsUnreadable, "the runs directory or a run record cannot be read"),
		errcode.Failed(CodeRunNotRunning, "`stratos runs stop`: the run has ended already"),
		errcode.Failed(CodeRunProcessUnconfirmed, "`stratos runs stop`: the process cannot be confirmed to be the run's, so it was not signalled"),
		errcode.Failed(CodeStopTimeout, "`stratos runs stop`: the run did not end in time after SIGTERM"),
		errcode.Failed(CodeStopFailed, "`stratos runs stop`: signalling the run's process failed"),
		errcode.Failed(CodeRunNotFinished, "`stratos runs result`: the run is still running"),
		errcode.Failed(CodeRunCrashed, "`stratos runs result`: the run crashed, so it has no result"),
		errcode.Failed(CodeRunFailed, "`stratos runs result`: the run failed and its record names no error code"),
		errcode.Failed(CodeDetachFailed, "`stratos run --detach`: the background run could not start or exited before its record began"),
		errcode.Failed(CodeBudgetExceeded, "the agents' usage crossed the run's budget (`details.spent`, `details.budget`); the run was cancelled"),
		errcode.Usage(CodeBudgetInvalid, "a budget (workflow.yaml's `budget` or `--budget-usd`/`--budget-tokens`) that is not a positive finite number (0, negative, NaN and Inf are refused), or an unknown field under `budget`"),
		errcode.Usage(CodeTestCasesInvalid, "`stratos test` (and `stratos build` of a workflow with test cases): a tests/*.yaml case, or a script it gives an agent, is invalid; the message names the file, the line, the case and the agent"),
		errcode.Usage(CodeNoTestCases, "`stratos test`: the workflow has no test cases, or none has the `--case` name"),
		errcode.Failed(CodeServeListenFailed, "`stratos serve`: the address cannot be listened on (e.g. the port is taken)"),
		errcode.Usage(CodeServeRequestInvalid, "`stratos serve`: `--port` is not a port or `--host` is empty; a request to the server names an unknown status, an API path the server does not have (HTTP 404) or a method the path does not take (HTTP 405, with `Allow`)"),
		errcode.Failed(CodeMCPAuthRequired, "an MCP server the workflow declares with oauth is not logged in, or its token has less than five minutes left and cannot be refreshed; the run did not start (`details.server`, `details.login`: the command to run)"),
		errcode.Failed(CodeServeReadRefused, "`stratos serve`: a request was refused: it carries no read token, or comes under a foreign Host, Origin or site"),
		errcode.Failed(CodeServeWriteRefused, "`stratos serve`: a write (Stop) was refused: non-loopback server, foreign Host or Origin, or no token"),
		errcode.Usage(CodeInputValidation, "`run`: the input does not match the workflow's input schema (`details.issues` lists every failing field); `run --detach` and `stratos mcp serve`'s run_workflow check it before the run starts"),
		errcode.Usage(CodeMCPTokenInvalid, "`stratos mcp serve --http`: `$STRATOS_MCP_TOKEN` is shorter than 32 characters (`details.minLength`)"),
		errcode.Usage(CodeListenNotLoopback, "`stratos mcp serve --http`: the address is not host:port with a loopback host (127.0.0.1, ::1, localhost)"),
		errcode.Failed(CodeListenFailed, "`stratos mcp serve --http`: the address cannot be listened on (in use, no such interface)"),
		errcode.Usage(CodeResumeNotResumable, "`stratos runs resume`: the run succeeded (nothing to resume), is still running (stop it first) or is being resumed by another execution that still runs (`details.resumedBy`)"),
		errcode.Usage(CodeResumeNoJournal, "`stratos runs resume`: the run has no journal it can be resumed from (recorded by an older Stratos, ended before its workflow started, or the journal is damaged or of a newer version: `details.reason`)"),
		errcode.Usage(CodeResumeCodeChanged, "`stratos runs resume --strict`: the code of a workflow in the run changed since it ran (`details.changedWorkflows`); without `--strict` the calls that still match are replayed"),
		errcode.Usage(CodeInputTooLarge, "`--input` or `--overrides` (a file, a FIFO, stdin) holds more than its size limit; `details.limit` and, when known, `details.size` in bytes"),
	}
}
