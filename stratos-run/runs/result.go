package runs

import (
	"encoding/json"
	"maps"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// Result returns the output of the run id when it succeeded. For any other
// finished run it returns the run's own error with the run's exit code, so
// that `stratos runs result` ends as `stratos run` did; a run that is still
// running or crashed is an error of its own (exit 1).
func (s *Store) Result(id string) (json.RawMessage, error) {
	r, err := s.Load(id)
	if err != nil {
		return nil, err
	}
	switch r.Status {
	case records.StatusRunning:
		return nil, clierr.New(runapi.CodeRunNotFinished, "run %s is still running", id).
			WithDetails(map[string]any{"executionId": id, "status": r.Status})
	case records.StatusCrashed:
		return nil, clierr.New(runapi.CodeRunCrashed, "run %s crashed: it has no result", id).
			WithDetails(map[string]any{"executionId": id, "status": r.Status})
	case records.StatusSucceeded:
		out, err := records.ReadResultFile(r.Dir, records.OutputFile)
		if err != nil || out == nil {
			return nil, unreadable(id, orMissing(err, records.OutputFile))
		}
		return out, nil
	}
	report, err := records.ReadResultFile(r.Dir, records.ErrorFile)
	if err != nil {
		return nil, unreadable(id, err)
	}
	return nil, recordedError(r, report)
}

// recordedError rebuilds the error a finished run reported from error.json,
// exiting as the run did.
func recordedError(r Run, report json.RawMessage) *clierr.Error {
	var e struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Details map[string]any `json:"details"`
		Cause   any            `json:"cause"`
	}
	_ = json.Unmarshal(report, &e) // a missing or odd error.json still gives the status
	details := map[string]any{}
	maps.Copy(details, e.Details)
	if e.Cause != nil {
		details["cause"] = e.Cause
	}
	details["executionId"], details["status"] = r.ExecutionID, r.Status
	ce := &clierr.Error{Code: e.Code, Message: e.Message, Details: details, Exit: clierr.ExitFailed}
	if r.Status == records.StatusCancelled || r.Status == records.StatusInterrupted {
		// The run's status, as list and show name it. (stratos run itself
		// reported the shared code interrupted: that command was
		// interrupted, which this one is not.)
		ce.Code = r.Status
	}
	if ce.Code == "" {
		ce.Code = runapi.CodeRunFailed
	}
	if ce.Message == "" {
		ce.Message = "run " + r.ExecutionID + " " + r.Status
	}
	if r.ExitCode != nil && *r.ExitCode != 0 {
		ce.Exit = *r.ExitCode
	}
	return ce
}

func orMissing(err error, name string) error {
	if err != nil {
		return err
	}
	return &missingFileError{name: name}
}

type missingFileError struct{ name string }

func (e *missingFileError) Error() string { return e.name + " is missing" }
