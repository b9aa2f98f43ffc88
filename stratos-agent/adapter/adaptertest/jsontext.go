package adaptertest

import (
	"bytes"
	"encoding/json"
)

// CanonicalJSON is a JSON value as encoding/json writes its decoded form,
// so that values equal as JSON compare equal: "&" and "\u0026", the
// whitespace around it, the order of an object's keys. Numbers keep their
// text, so one beyond float64's range compares too. Text that is not JSON
// comes back as it is.
func CanonicalJSON(raw []byte) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return string(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}
