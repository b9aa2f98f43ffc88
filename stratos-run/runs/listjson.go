package runs

import (
	"bufio"
	"io"
	"strconv"
	"time"
	"unicode/utf8"
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
	b = appendString(b, r.ExecutionID)
	b = append(b, ",\n"+in+`"workflow": `...)
	b = appendString(b, r.Workflow)
	b = append(b, ",\n"+in+`"status": `...)
	b = appendString(b, r.Status)
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
		b = appendString(b, r.Reconciled.Reason)
		b = append(b, "\n"+in+"}"...)
	}
	b = append(b, ",\n"+in+`"dir": `...)
	b = appendString(b, r.Dir)
	return append(b, "\n    }"...)
}

// appendTime appends t as time.Time's MarshalJSON does.
func appendTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

const hex = "0123456789abcdef"

// appendString appends s as a JSON string the way encoding/json does with
// HTML escaping off: invalid UTF-8 becomes U+FFFD, and U+2028 and U+2029
// are escaped.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
