package command

import (
	"io"
	"strconv"

	"github.com/stratoscli/stratos/shared/jsonappend"
	"github.com/stratoscli/stratos/shared/manifest"
)

// writeListJSON writes out as clierr.PrintJSON does (encoding/json, two
// spaces of indent, HTML characters unescaped, a final newline), byte for
// byte, in one pass: the encoder marshals the listing, then indents it
// into a second buffer, which for a thousand workflows is a tenth of what
// listing costs with an index.
func writeListJSON(w io.Writer, out listOutput) error {
	b := make([]byte, 0, 64+256*len(out.Workflows))
	b = append(b, "{\n  \"workflows\": ["...)
	for i, wf := range out.Workflows {
		b = openElement(b, i)
		b = appendField(b, "name", wf.Name, true)
		b = appendField(b, "shortDescription", wf.ShortDescription, false)
		b = appendField(b, "root", wf.Root, false)
		b = appendField(b, "dir", wf.Dir, false)
		b = appendField(b, "status", wf.Status, false)
		if wf.Reason != "" {
			b = appendField(b, "reason", wf.Reason, false)
		}
		b = append(b, "\n    }"...)
	}
	b = closeArray(b, len(out.Workflows))
	b = append(b, ",\n  \"problems\": ["...)
	for i, p := range out.Problems {
		b = appendProblem(openElement(b, i), p)
	}
	b = closeArray(b, len(out.Problems))
	b = append(b, "\n}\n"...)
	_, err := w.Write(b)
	return err
}

func openElement(b []byte, i int) []byte {
	if i > 0 {
		b = append(b, ',')
	}
	return append(b, "\n    {"...)
}

func closeArray(b []byte, n int) []byte {
	if n > 0 {
		b = append(b, "\n  "...)
	}
	return append(b, ']')
}

func appendProblem(b []byte, p manifest.Problem) []byte {
	b = appendField(b, "dir", p.Dir, true)
	b = appendField(b, "manifest", p.Manifest, false)
	if p.Field != "" {
		b = appendField(b, "field", p.Field, false)
	}
	b = appendField(b, "code", p.Code, false)
	b = appendField(b, "message", p.Message, false)
	if p.Actual != nil {
		b = strconv.AppendInt(appendKey(b, "actual", false), int64(*p.Actual), 10)
	}
	if p.Max != nil {
		b = strconv.AppendInt(appendKey(b, "max", false), int64(*p.Max), 10)
	}
	return append(b, "\n    }"...)
}

// appendKey appends an object member's key at the depth of a listed
// element's fields.
func appendKey(b []byte, key string, first bool) []byte {
	if !first {
		b = append(b, ',')
	}
	b = append(b, "\n      \""...)
	b = append(b, key...)
	return append(b, "\": "...)
}

func appendField(b []byte, key, value string, first bool) []byte {
	return jsonappend.String(appendKey(b, key, first), value)
}
