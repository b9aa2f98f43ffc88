// Command writeruns writes N finished run records into a runs directory, as
// N runs of `stratos run` would (through the same records package), one
// second apart with a realistic mix of statuses. scripts/bench-runs uses it
// to measure `stratos runs list` over many records.
//
//	go run ./testscripts/cmd/writeruns <runs-dir> <n>
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/stratoscli/stratos/stratos-run/records"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: writeruns <runs-dir> <n>")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[2])
	if err == nil {
		err = write(os.Args[1], n)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "writeruns:", err)
		os.Exit(1)
	}
}

func write(dir string, n int) error {
	start := time.Now().UTC().Add(-time.Duration(n) * time.Second)
	workflows := []string{"review", "fix-tests", "hello", "triage"}
	for i := range n {
		at := start.Add(time.Duration(i) * time.Second)
		id := fmt.Sprintf("%s-%08x", at.Format("20060102T150405Z"), i)
		r, err := records.Begin(dir, records.Invocation{
			ExecutionID: id, Workflow: workflows[i%len(workflows)], Dir: "/p/.stratos/workflows/w", Root: "/p/.stratos/workflows",
			Cwd: "/p", Input: json.RawMessage(`{"pr":42,"notes":"a short input"}`), PID: 4000000 + i, ProcessStart: 12345, StartedAt: at,
		})
		if err != nil {
			return err
		}
		if err := r.Finish(final(i, at)); err != nil {
			return err
		}
	}
	return nil
}

// final is how run i ended: most succeed, every tenth fails, every
// twenty-fifth is cancelled.
func final(i int, at time.Time) records.Final {
	end := at.Add(time.Duration(500+i%2000) * time.Millisecond)
	switch {
	case i%25 == 0:
		return records.Final{Status: records.StatusCancelled, ExitCode: 130, EndedAt: end, Error: map[string]any{"code": "cancelled", "message": "cancelled"}}
	case i%10 == 0:
		return records.Final{Status: records.StatusFailed, ExitCode: 1, EndedAt: end, Error: map[string]any{"code": "workflow_failed", "message": "the review failed"}}
	}
	return records.Final{Status: records.StatusSucceeded, EndedAt: end, Output: json.RawMessage(`{"ok":true,"summary":"all good"}`)}
}
