package records

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"time"

	"github.com/stratoscli/stratos/shared/atomicfile"
)

// EngineTemporal is Run.Engine of a run on the Temporal engine; a local
// run's is empty.
const EngineTemporal = "temporal"

// TemporalRun is where a run on the Temporal engine is: its workflow,
// and the server and namespace that hold it (as the submitter's
// TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE named them).
type TemporalRun struct {
	WorkflowID string `json:"workflowId"`
	Address    string `json:"address"`
	Namespace  string `json:"namespace"`
	TaskQueue  string `json:"taskQueue"`
}

// FinishElsewhere writes how a run that ran elsewhere ended (a Temporal
// run, as its workflow reported it) into the record in dir, as Finish
// does, when its status still says running; events, when not nil, replace
// events.jsonl first (the complete events of the run, where the record
// held those reported while it ran). It returns the status it left.
func FinishElsewhere(dir string, f Final, events []json.RawMessage) (Status, error) {
	st, err := ReadStatus(dir)
	if err != nil || st.Status != StatusRunning {
		return st, err
	}
	if events != nil {
		var b bytes.Buffer
		for _, e := range events {
			b.Write(e)
			b.WriteByte('\n')
		}
		path := filepath.Join(dir, EventsFile)
		if err := atomicfile.WriteFile(path, b.Bytes(), atomicfile.Public); err != nil {
			return st, recordError(path, err)
		}
	}
	r := &Run{dir: dir, status: st}
	if f.EndedAt.IsZero() {
		f.EndedAt = time.Now()
	}
	if err := r.Finish(f); err != nil {
		return st, err
	}
	return r.status, nil
}
