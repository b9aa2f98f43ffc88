package catalogdiff

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-models/internal/catalog"
)

func cat(commit string, models map[string]map[string][]catalog.NativeID) *catalog.Catalog {
	c := &catalog.Catalog{Schema: catalog.Schema, Source: catalog.Source{Commit: commit}, Models: map[string]*catalog.Model{}}
	for id, providers := range models {
		c.Models[id] = &catalog.Model{Creator: strings.Split(id, "/")[0], Providers: providers}
	}
	return c
}

func md(ids ...string) []catalog.NativeID {
	var out []catalog.NativeID
	for _, id := range ids {
		origin := catalog.OriginModelsDev
		if strings.HasPrefix(id, "!") {
			id, origin = id[1:], catalog.OriginStratos
		}
		out = append(out, catalog.NativeID{ID: id, Origin: origin})
	}
	return out
}

func byteOrder(_ string, ids []catalog.NativeID) []catalog.NativeID { return ids }

func TestCompute(t *testing.T) {
	prev := cat("aaaaaaaaaaaaaaaa", map[string]map[string][]catalog.NativeID{
		"a/kept":    {"p": md("jp.x", "x"), "q": md("!q1")},
		"a/removed": {"p": md("gone")},
	})
	next := cat("bbbbbbbbbbbbbbbb", map[string]map[string][]catalog.NativeID{
		"a/kept":  {"p": md("eu.x", "jp.x", "x"), "q": md("q1")},
		"b/added": {"r": md("new")},
	})
	d := Compute(prev, next, byteOrder)
	want := &Diff{
		From: "aaaaaaaaaaaaaaaa", To: "bbbbbbbbbbbbbbbb",
		AddedModels:      []string{"b/added"},
		RemovedModels:    []string{"a/removed"},
		AddedNativeIDs:   []NativeChange{{"a/kept", "p", "eu.x", catalog.OriginModelsDev}, {"b/added", "r", "new", catalog.OriginModelsDev}},
		RemovedNativeIDs: []NativeChange{{"a/removed", "p", "gone", catalog.OriginModelsDev}},
		ChangedFirstIDs:  []FirstChange{{"a/kept", "p", "jp.x", "eu.x"}},
		ChangedOrigins:   []OriginChange{{"a/kept", "q", "q1", catalog.OriginStratos, catalog.OriginModelsDev}},
		ChangedCosts:     []CostChange{},
	}
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("diff = %+v", d)
	}
	var b bytes.Buffer
	d.WriteText(&b)
	for _, line := range []string{
		"catalog diff aaaaaaaaaaaa → bbbbbbbbbbbb",
		"+ model  b/added",
		"- model  a/removed",
		"+ native a/kept  p: eu.x (models.dev)",
		"- native a/removed  p: gone (models.dev)",
		"~ first  a/kept  p: jp.x → eu.x",
		"~ origin a/kept  q: q1 stratos → models.dev",
		"1 added and 1 removed models, 2 added and 1 removed native IDs, 1 changed first IDs, 1 changed origins, 0 changed costs",
	} {
		if !strings.Contains(b.String(), line+"\n") {
			t.Errorf("text lacks %q:\n%s", line, b.String())
		}
	}
}

func TestComputeUsesLookupOrderForFirstIDs(t *testing.T) {
	prev := cat("a", map[string]map[string][]catalog.NativeID{"a/m": {"p": md("jp.x")}})
	next := cat("b", map[string]map[string][]catalog.NativeID{"a/m": {"p": md("jp.x", "us.x")}})
	usFirst := func(_ string, ids []catalog.NativeID) []catalog.NativeID {
		out := append([]catalog.NativeID(nil), ids...)
		for i, n := range out {
			if strings.HasPrefix(n.ID, "us.") {
				out[0], out[i] = out[i], out[0]
			}
		}
		return out
	}
	if d := Compute(prev, next, usFirst); !reflect.DeepEqual(d.ChangedFirstIDs, []FirstChange{{"a/m", "p", "jp.x", "us.x"}}) {
		t.Errorf("first IDs = %+v", d.ChangedFirstIDs)
	}
	if d := Compute(prev, next, byteOrder); len(d.ChangedFirstIDs) != 0 {
		t.Errorf("byte order: first IDs = %+v", d.ChangedFirstIDs)
	}
}

func TestEmptyDiff(t *testing.T) {
	c := cat("a", map[string]map[string][]catalog.NativeID{"a/m": {"p": md("x")}})
	d := Compute(c, c, byteOrder)
	var b bytes.Buffer
	d.WriteText(&b)
	if !d.Empty() || !strings.Contains(b.String(), "no changes") {
		t.Errorf("diff = %+v\n%s", d, b.String())
	}
}

// priced is one native ID at a price (nil: none stated).
func priced(id string, p *modelsapi.Price) []catalog.NativeID {
	return []catalog.NativeID{{ID: id, Origin: catalog.OriginModelsDev, Cost: p}}
}

func rate(v float64) *float64 { return &v }

func TestComputeReportsPriceOnlyChanges(t *testing.T) {
	was := &modelsapi.Price{Input: 3, Output: 15, CacheRead: rate(0.3)}
	prev := cat("a", map[string]map[string][]catalog.NativeID{
		"a/cheaper": {"p": priced("x", was)},
		"a/cached":  {"p": priced("y", &modelsapi.Price{Input: 3, Output: 15})},
		"a/priced":  {"p": priced("z", nil)},
		"a/same":    {"p": priced("s", &modelsapi.Price{Input: 1, Output: 2, CacheRead: rate(0.1)})},
	})
	next := cat("b", map[string]map[string][]catalog.NativeID{
		"a/cheaper": {"p": priced("x", &modelsapi.Price{Input: 1, Output: 15, CacheRead: rate(0.3)})},
		"a/cached":  {"p": priced("y", &modelsapi.Price{Input: 3, Output: 15, CacheWrite: rate(3.75)})},
		"a/priced":  {"p": priced("z", &modelsapi.Price{Input: 2, Output: 8})},
		"a/same":    {"p": priced("s", &modelsapi.Price{Input: 1, Output: 2, CacheRead: rate(0.1)})},
	})
	d := Compute(prev, next, byteOrder)
	want := []CostChange{
		{"a/cached", "p", "y", &modelsapi.Price{Input: 3, Output: 15}, &modelsapi.Price{Input: 3, Output: 15, CacheWrite: rate(3.75)}},
		{"a/cheaper", "p", "x", was, &modelsapi.Price{Input: 1, Output: 15, CacheRead: rate(0.3)}},
		{"a/priced", "p", "z", nil, &modelsapi.Price{Input: 2, Output: 8}},
	}
	if !reflect.DeepEqual(d.ChangedCosts, want) {
		t.Errorf("changed costs = %+v; want %+v", d.ChangedCosts, want)
	}
	if d.Empty() {
		t.Error("a diff of price changes only is empty")
	}
	var b bytes.Buffer
	d.WriteText(&b)
	for _, line := range []string{
		"~ cost   a/cheaper  p: x in 3 out 15 cache-read 0.3 → in 1 out 15 cache-read 0.3",
		"~ cost   a/priced  p: z none → in 2 out 8",
		"0 added and 0 removed models, 0 added and 0 removed native IDs, 0 changed first IDs, 0 changed origins, 3 changed costs",
	} {
		if !strings.Contains(b.String(), line+"\n") {
			t.Errorf("text lacks %q:\n%s", line, b.String())
		}
	}
}
