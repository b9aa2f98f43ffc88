package runs

import (
	"slices"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/contract/journalapi"
)

func hashOf(c byte) string { return strings.Repeat(string(c), 64) }

func execEntry(path, config string, agent, call int, hash byte, replayed bool) journalapi.Entry {
	text := "reply"
	return journalapi.Entry{V: journalapi.Version, Kind: journalapi.KindExecute, Path: path, InputSHA256: hashOf(hash), Replayed: replayed,
		Execute: &journalapi.Execute{ConfigID: config, Agent: agent, Call: call, Text: &text}}
}

func childStarted(path, name string, k int, hash byte) journalapi.Entry {
	return journalapi.Entry{V: journalapi.Version, Kind: journalapi.KindChildStarted, Path: path, InputSHA256: hashOf(hash), Child: &journalapi.Child{Name: name, K: k}}
}

func identities(es []journalapi.Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Identity())
	}
	slices.Sort(out)
	return out
}

// TestInherit holds which of an older execution's entries a resume of a
// newer one, which resumed it, inherits: the places the newer one did not
// reach, except in an invocation it diverged in, and under one.
func TestInherit(t *testing.T) {
	older := []journalapi.Entry{
		execEntry("w", "plan", 1, 1, 'a', false),
		execEntry("w", "plan", 1, 2, 'b', false),
		execEntry("w", "review", 1, 1, 'c', false),
		childStarted("w", "sum", 1, 'd'),
		execEntry("w/sum#1", "writer", 1, 1, 'e', false),
	}
	cases := []struct {
		name  string
		newer []journalapi.Entry
		want  []journalapi.Entry
	}{
		{"nothing reached", nil, older},
		{"a prefix replayed", []journalapi.Entry{execEntry("w", "plan", 1, 1, 'a', true)}, older},
		{"a failed call made again with its input", []journalapi.Entry{execEntry("w", "plan", 1, 1, 'a', false)}, older},
		{
			"a call's input differs: its invocation and the children under it diverged",
			[]journalapi.Entry{execEntry("w", "plan", 1, 1, 'a', true), execEntry("w", "plan", 1, 2, 'x', false)},
			[]journalapi.Entry{execEntry("w", "plan", 1, 1, 'a', true), execEntry("w", "plan", 1, 2, 'x', false)},
		},
		{
			"a new agent object where the older one was never claimed",
			[]journalapi.Entry{execEntry("w", "review", 2, 1, 'x', false)},
			[]journalapi.Entry{execEntry("w", "review", 2, 1, 'x', false)},
		},
		{
			"a new child where the older one was never claimed",
			[]journalapi.Entry{childStarted("w", "sum", 2, 'x')},
			[]journalapi.Entry{childStarted("w", "sum", 2, 'x')},
		},
		{
			"a divergence in a child leaves its parent's entries inherited",
			[]journalapi.Entry{childStarted("w", "sum", 1, 'd'), execEntry("w/sum#1", "writer", 1, 1, 'x', false)},
			[]journalapi.Entry{childStarted("w", "sum", 1, 'd'), execEntry("w/sum#1", "writer", 1, 1, 'x', false), older[0], older[1], older[2]},
		},
		{
			"a new agent object once the older ones are claimed is a new place",
			[]journalapi.Entry{execEntry("w", "review", 1, 1, 'c', true), execEntry("w", "review", 2, 1, 'y', false)},
			append([]journalapi.Entry{execEntry("w", "review", 2, 1, 'y', false)}, older...),
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := inherit(slices.Clone(c.newer), older)
			if g, w := identities(got), identities(c.want); !slices.Equal(g, w) {
				t.Errorf("inherited\n  %q\nwant\n  %q", g, w)
			}
		})
	}
}
