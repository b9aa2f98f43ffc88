package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
)

// The file layout is plain JSON with one provider and one model per line:
//
//	{
//	  "schema": "…",
//	  "source": {…},
//	  "providers": {
//	    "<id>": {…},
//	  },
//	  "models": {
//	    "<creator>/<model>": {…},
//	  }
//	}
//
// One line per model keeps release diffs readable (a changed model is a
// changed line) and lets LoadIndexed find a model without decoding the
// other 230: decoding the whole file costs most of the 5 ms budget a
// lookup has.

const (
	modelsMarker = "\n  \"models\": {\n"
	modelsEnd    = "\n  }\n}\n"
	modelIndent  = "    "
)

// Encode renders the catalog in the layout above. Keys are sorted, so the
// same catalog always gives the same bytes.
func (c *Catalog) Encode() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{\n")
	for _, field := range []struct {
		key string
		v   any
	}{{"schema", c.Schema}, {"source", c.Source}} {
		if err := writeMember(&b, "  ", field.key, field.v, ",\n"); err != nil {
			return nil, err
		}
	}
	b.WriteString("  \"providers\": {\n")
	providerIDs := slices.Sorted(maps.Keys(c.Providers))
	for i, id := range providerIDs {
		if err := writeMember(&b, modelIndent, id, c.Providers[id], separator(i, len(providerIDs))); err != nil {
			return nil, err
		}
	}
	b.WriteString("  },\n  \"models\": {\n")
	ids := c.IDs()
	for i, id := range ids {
		if err := writeMember(&b, modelIndent, id, c.Models[id], separator(i, len(ids))); err != nil {
			return nil, err
		}
	}
	b.WriteString("  }\n}\n")
	return b.Bytes(), nil
}

func separator(i, n int) string {
	if i == n-1 {
		return "\n"
	}
	return ",\n"
}

// writeMember writes indent"key": <compact value>sep.
func writeMember(b *bytes.Buffer, indent, key string, v any, sep string) error {
	k, err := marshalCompact(key)
	if err != nil {
		return err
	}
	val, err := marshalCompact(v)
	if err != nil {
		return fmt.Errorf("encode catalog %s: %w", key, err)
	}
	b.WriteString(indent)
	b.Write(k)
	b.WriteString(": ")
	b.Write(val)
	b.WriteString(sep)
	return nil
}

func marshalCompact(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// LoadIndexed decodes the header and indexes the model lines; each model is
// decoded (and checked) on first use. Data in any other layout is still
// accepted, through a full Load.
func LoadIndexed(data []byte) (*Catalog, error) {
	c, ok := loadIndexed(data)
	if !ok {
		return Load(data)
	}
	if c.Schema != Schema {
		return nil, fmt.Errorf("catalog schema is %q, want %q", c.Schema, Schema)
	}
	if c.Source.Commit == "" {
		return nil, fmt.Errorf("catalog has no source commit")
	}
	return c, nil
}

// loadIndexed reports false when data is not in the generator's layout.
func loadIndexed(data []byte) (*Catalog, bool) {
	start := bytes.Index(data, []byte(modelsMarker))
	if start < 0 || !bytes.HasSuffix(data, []byte(modelsEnd)) {
		return nil, false
	}
	header := append(bytes.TrimSuffix(data[:start:start], []byte(",")), "\n}"...)
	var c Catalog
	if json.Unmarshal(header, &c) != nil {
		return nil, false
	}
	c.Models = map[string]*Model{}
	c.pending = map[string][]byte{}
	body := data[start+len(modelsMarker) : len(data)-len(modelsEnd)]
	for len(body) > 0 {
		line := body
		if i := bytes.IndexByte(body, '\n'); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			body = nil
		}
		id, value, ok := splitModelLine(line)
		if !ok {
			return nil, false
		}
		c.pending[id] = value
	}
	return &c, true
}

// splitModelLine splits `    "<id>": {…},` into the ID and the value. IDs
// with escapes are left to the full decoder.
func splitModelLine(line []byte) (string, []byte, bool) {
	rest, ok := bytes.CutPrefix(line, []byte(modelIndent+`"`))
	if !ok {
		return "", nil, false
	}
	key, value, ok := bytes.Cut(rest, []byte(`": `))
	if !ok || bytes.ContainsAny(key, `"\`) {
		return "", nil, false
	}
	value = bytes.TrimSuffix(value, []byte(","))
	if len(value) < 2 || value[0] != '{' || value[len(value)-1] != '}' {
		return "", nil, false
	}
	return string(key), value, true
}

// IDs returns every canonical ID in byte order, decoded or not.
func (c *Catalog) IDs() []string {
	ids := make([]string, 0, len(c.Models)+len(c.pending))
	for id := range c.Models {
		ids = append(ids, id)
	}
	for id := range c.pending {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// decode turns an indexed model line into a checked Model.
func (c *Catalog) decode(id string) (*Model, error) {
	raw, ok := c.pending[id]
	if !ok {
		return nil, nil
	}
	var m Model
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("decode catalog model %q: %w", id, err)
	}
	if err := checkModel(id, &m); err != nil {
		return nil, err
	}
	delete(c.pending, id)
	c.Models[id] = &m
	return &m, nil
}
