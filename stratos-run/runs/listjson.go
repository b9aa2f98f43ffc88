package runs

import (
	"bufio"
	"io"
	"strconv"
	"time"

	"github.com/stratoscli/stratos/shared/jsonappend"
)

// WriteListJSON writes {"runs": list} exactly as clierr.PrintJSON would
// (two-space indent, no HTML escaping), without reflection: a listing of
// ten thousand runs spends most of its time encoding otherwise. The
// equivalence is tested field by field in listjson_test.go.
func WriteListJSON(w io.Writer, list []Run) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	if len(list) == 0 {
		bw.WriteString("{\n  \"runs\": []\n}\n")
		return bw.Flush()
	}
	bw.WriteString("{\n  \"runs\": [\n")
	buf := make([]byte, 0, 1024)
	for i, r := range list {
		buf = appendRun(buf[:0], r)
		if i < len(list)-1 {
			buf = append(buf, ',')
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	bw.WriteString("  ]\n}\n")
	return bw.Flush()
}

// appendRun appends r as an element of the runs array (indent 4), in the
// field order and with the omissions of Run's JSON tags.
func appendRun(b []byte, r Run) []byte {
	const in = "      "
	b = append(b, "    {\n"+in+`"executionId": `...)
	b = jsonappend.String(b, r.ExecutionID)
	b = append(b, ",\n"+in+`"workflow": `...)
	b = jsonappend.String(b, r.Workflow)
	b = append(b, ",\n"+in+`"status": `...)
	b = jsonappend.String(b, r.Status)
	b = append(b, ",\n"+in+`"startedAt": `...)
	b = appendTime(b, r.StartedAt)
	if r.EndedAt != nil {
		b = append(b, ",\n"+in+`"endedAt": `...)
		b = appendTime(b, *r.EndedAt)
	}
	b = append(b, ",\n"+in+`"durationMs": `...)
	b = strconv.AppendInt(b, r.DurationMs, 10)
	b = append(b, ",\n"+in+`"pid": `...)
	b = strconv.AppendInt(b, int64(r.PID), 10)
	if r.ExitCode != nil {
		b = append(b, ",\n"+in+`"exitCode": `...)
		b = strconv.AppendInt(b, int64(*r.ExitCode), 10)
	}
	if r.Reconciled != nil {
		b = append(b, ",\n"+in+`"reconciled": {`+"\n"+in+`  "at": `...)
		b = appendTime(b, r.Reconciled.At)
		b = append(b, ",\n"+in+`  "reason": `...)
		b = jsonappend.String(b, r.Reconciled.Reason)
		if r.Reconciled.InferredEnd != nil {
			b = append(b, ",\n"+in+`  "inferredEnd": `...)
			b = appendTime(b, *r.Reconciled.InferredEnd)
		}
		if r.Reconciled.InferredFrom != "" {
			b = append(b, ",\n"+in+`  "inferredFrom": `...)
			b = jsonappend.String(b, r.Reconciled.InferredFrom)
		}
		b = append(b, "\n"+in+"}"...)
	}
	if r.ResumedFrom != "" {
		b = append(b, ",\n"+in+`"resumedFrom": `...)
		b = jsonappend.String(b, r.ResumedFrom)
	}
	if r.AttemptOf != "" {
		b = append(b, ",\n"+in+`"attemptOf": `...)
		b = jsonappend.String(b, r.AttemptOf)
	}
	b = append(b, ",\n"+in+`"dir": `...)
	b = jsonappend.String(b, r.Dir)
	if r.Engine != "" {
		b = append(b, ",\n"+in+`"engine": `...)
		b = jsonappend.String(b, r.Engine)
	}
	return append(b, "\n    }"...)
}

// appendTime appends t as time.Time's MarshalJSON does.
func appendTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}
