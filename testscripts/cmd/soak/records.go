package main

import (
	"encoding/json"
	"fmt"

	"github.com/stratoscli/stratos/stratos-run/records"
	"github.com/stratoscli/stratos/stratos-run/runs"
)

// record is a run as `stratos runs show --json` tells it, the way a user
// reads it (the command reconciles the record first).
type record struct {
	runs.Details
	// Code is error.json's code; "" for a run that succeeded.
	Code string
}

// show reads the run id through `stratos runs show <id> --json`; an error
// means the record could not be read.
func (s *stack) show(id string) (record, error) {
	out, err := s.output("runs", "show", id, "--json")
	if err != nil {
		return record{}, err
	}
	var r record
	if err := json.Unmarshal(out, &r.Details); err != nil {
		return record{}, fmt.Errorf("stratos runs show %s --json: %w: %s", id, err, tail(string(out), 500))
	}
	if len(r.Error) > 0 {
		var e struct {
			Code string `json:"code"`
		}
		if err := json.Unmarshal(r.Error, &e); err != nil {
			return record{}, fmt.Errorf("stratos runs show %s --json: error: %w", id, err)
		}
		r.Code = e.Code
	}
	return r, nil
}

// listed returns the status `stratos runs list --json` gives the run id;
// "" when the list does not have it.
func (s *stack) listed(id string) (string, error) {
	out, err := s.output("runs", "list", "--json")
	if err != nil {
		return "", err
	}
	var l struct {
		Runs []runs.Run `json:"runs"`
	}
	if err := json.Unmarshal(out, &l); err != nil {
		return "", fmt.Errorf("stratos runs list --json: %w", err)
	}
	for _, r := range l.Runs {
		if r.ExecutionID == id {
			return r.Status, nil
		}
	}
	return "", nil
}

// finished reports whether status is a final one a reader may rely on.
func finished(status string) bool {
	switch status {
	case records.StatusSucceeded, records.StatusFailed, records.StatusCancelled, records.StatusInterrupted, records.StatusCrashed:
		return true
	}
	return false
}
