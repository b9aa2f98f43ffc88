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
		errcode.Usage(CodeRepositoryMissing, "the run's working directory does not exist on the worker that took the run's code"),
	}
}
