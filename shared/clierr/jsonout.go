package clierr

import (
	"encoding/json"
	"io"
)

// PrintJSON writes v to w as one indented JSON document. With --json, stdout
// must carry exactly this and nothing else.
func PrintJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
