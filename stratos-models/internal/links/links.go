// Package links reads links.v1.json: Stratos's own reviewed, explicit links
// from a provider-native ID to a canonical model, for offerings Models.dev
// leaves unlinked (its first-party providers above all). Every entry is a
// decision a person made and a reviewer approved; nothing here is inferred
// at generation or run time. The generator checks each entry against the
// source tree it reads.
package links

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Schema identifies the file format.
const Schema = "stratos.models.links.v1"

// File is the whole links file.
type File struct {
	Schema string `json:"schema"`
	// ReviewedAgainst is the Models.dev commit the entries were reviewed
	// against; generating from another commit still checks every entry, and
	// warns that the review is due again.
	ReviewedAgainst string  `json:"reviewedAgainst"`
	Groups          []Group `json:"groups"`
}

// Group is a set of links on one provider that share one reviewed reason.
type Group struct {
	Provider string `json:"provider"`
	Reason   string `json:"reason"`
	Links    []Link `json:"links"`
}

// Link maps one native ID on the group's provider to a canonical model.
type Link struct {
	NativeID string `json:"nativeId"`
	Model    string `json:"model"`
}

// Entry is a link with its provider and its position in the file, for
// error messages that point at the entry at fault.
type Entry struct {
	Provider string
	NativeID string
	Model    string
	Where    string // e.g. groups[0].links[3]
}

// Parse decodes and checks a links file; name is used in error messages.
// Unknown fields and duplicate entries are errors: a reviewed file must say
// exactly one thing about each native ID.
func Parse(name string, data []byte) ([]Entry, *File, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if f.Schema != Schema {
		return nil, nil, fmt.Errorf("%s: schema is %q, want %q", name, f.Schema, Schema)
	}
	var entries []Entry
	seen := map[string]string{}
	for gi, g := range f.Groups {
		if g.Provider == "" || strings.TrimSpace(g.Reason) == "" {
			return nil, nil, fmt.Errorf("%s: groups[%d] needs a provider and a reason", name, gi)
		}
		for li, l := range g.Links {
			where := fmt.Sprintf("groups[%d].links[%d]", gi, li)
			if l.NativeID == "" || strings.Count(l.Model, "/") != 1 {
				return nil, nil, fmt.Errorf("%s: %s needs a nativeId and a model of the form <creator>/<model>, found %q → %q", name, where, l.NativeID, l.Model)
			}
			key := g.Provider + "\x00" + l.NativeID
			if prev, dup := seen[key]; dup {
				return nil, nil, fmt.Errorf("%s: %s and %s both link %s:%s", name, prev, where, g.Provider, l.NativeID)
			}
			seen[key] = where
			entries = append(entries, Entry{Provider: g.Provider, NativeID: l.NativeID, Model: l.Model, Where: where})
		}
	}
	return entries, &f, nil
}
