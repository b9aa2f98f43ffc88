package runs

import (
	"bytes"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// WriteListJSON must print what clierr.PrintJSON prints for the same list.
func TestWriteListJSONIsPrintJSON(t *testing.T) {
	end := time.Date(2026, 12, 3, 9, 48, 12, 700_000_000, time.UTC)
	code := 130
	odd := []string{"plain", "quote\" back\\slash", "new\nline\ttab\rcr", "backspace\b formfeed\f", "ctl\x01\x1f", "<html> & more",
		"é ü 日本", "bad \xff utf8", "sep \u2028 \u2029", ""}
	var list []Run
	for i, s := range odd {
		r := Run{ExecutionID: "20261203T094800Z-9b2d4c1" + string(rune('0'+i)), Workflow: s, Status: records.StatusFailed,
			StartedAt: end.Add(-time.Duration(i) * time.Hour).In(time.FixedZone("X", 3600)), DurationMs: int64(i * 1000), PID: 80000 + i, Dir: "/runs/" + s}
		if i%2 == 0 {
			r.EndedAt, r.ExitCode = &end, &code
		}
		if i%4 == 1 {
			r.ResumedFrom = s
		}
		if i%5 == 2 {
			r.Engine = records.EngineTemporal
		}
		if i%3 == 0 {
			r.Reconciled = &records.Reconciliation{At: end, Reason: s}
			if i%2 == 0 {
				inferred := end.Add(-time.Minute)
				r.Reconciled.InferredEnd, r.Reconciled.InferredFrom = &inferred, s
			}
		}
		list = append(list, r)
	}
	for _, l := range [][]Run{nil, list[:1], list} {
		var got, want bytes.Buffer
		if err := WriteListJSON(&got, l); err != nil {
			t.Fatal(err)
		}
		if l == nil {
			l = []Run{}
		}
		if err := clierr.PrintJSON(&want, struct {
			Runs []Run `json:"runs"`
		}{l}); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("WriteListJSON:\n%s\nPrintJSON:\n%s", got.String(), want.String())
		}
	}
}
