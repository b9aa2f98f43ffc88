package generate

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-models/internal/catalog"
	"github.com/stratoscli/stratos/stratos-models/internal/testsource"
)

const fixtureCommit = "f3fc692299671838c7c65fd8126bf84d81a2e817"

// linksJSON builds a links file with one group per provider.
func linksJSON(reviewed string, groups map[string][][2]string) []byte {
	var gs []string
	providers := make([]string, 0, len(groups))
	for p := range groups {
		providers = append(providers, p)
	}
	sort.Strings(providers)
	for _, p := range providers {
		var ls []string
		for _, l := range groups[p] {
			ls = append(ls, fmt.Sprintf(`{"nativeId": %q, "model": %q}`, l[0], l[1]))
		}
		gs = append(gs, fmt.Sprintf(`{"provider": %q, "reason": "test", "links": [%s]}`, p, strings.Join(ls, ",")))
	}
	return []byte(fmt.Sprintf(`{"schema": "stratos.models.links.v1", "reviewedAgainst": %q, "groups": [%s]}`, reviewed, strings.Join(gs, ",")))
}

var noLinks = linksJSON(fixtureCommit, nil)

func run(t *testing.T, dir string, links []byte) *Result {
	t.Helper()
	res, err := FromSource(context.Background(), Options{Source: dir, LinksName: "links.json", LinksJSON: links})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// mapping flattens a catalog to "model provider" → native IDs (byte order).
func mapping(c *catalog.Catalog) map[string][]string {
	out := map[string][]string{}
	for id, m := range c.Models {
		for p, ids := range m.Providers {
			for _, n := range ids {
				out[id+" "+p] = append(out[id+" "+p], n.ID)
			}
		}
	}
	return out
}

// The expected strict mapping of the sample, worked out from its
// base_model fields alone (docs/design/model-catalog.md).
var fixtureMapping = map[string][]string{
	"alibaba/qwen3-235b-a22b openrouter": {"qwen/qwen3-235b-a22b"},
	"anthropic/claude-opus-4-6 amazon-bedrock": {"anthropic.claude-opus-4-6-v1", "eu.anthropic.claude-opus-4-6-v1",
		"global.anthropic.claude-opus-4-6-v1", "us.anthropic.claude-opus-4-6-v1"},
	"anthropic/claude-opus-4-6 github-copilot":           {"claude-opus-4.6"},
	"anthropic/claude-opus-4-6 google-vertex":            {"claude-opus-4-6@default"},
	"anthropic/claude-opus-4-6 google-vertex-anthropic":  {"claude-opus-4-6@default"},
	"anthropic/claude-opus-4-6 openrouter":               {"anthropic/claude-opus-4.6"},
	"anthropic/claude-opus-4-7 amazon-bedrock":           {"jp.anthropic.claude-opus-4-7"},
	"anthropic/claude-opus-4-7 venice":                   {"claude-opus-4-7", "claude-opus-4-7-fast"},
	"anthropic/claude-sonnet-4-5 amazon-bedrock":         {"jp.anthropic.claude-sonnet-4-5-20250929-v1:0"},
	"anthropic/claude-sonnet-4-5 openrouter":             {"anthropic/claude-sonnet-4.5"},
	"anthropic/claude-sonnet-4-5-20250929 google-vertex": {"claude-sonnet-4-5@20250929"},
	"google/gemini-2.5-pro google":                       {"gemini-2.5-pro"},
	"google/gemini-2.5-pro google-vertex":                {"gemini-2.5-pro"},
	"google/gemini-2.5-pro requesty":                     {"google/gemini-2.5-pro"},
	"meta/llama-3.3-70b-instruct openrouter":             {"meta-llama/llama-3.3-70b-instruct", "meta-llama/llama-3.3-70b-instruct:free"},
	"openai/gpt-5 openai":                                {"gpt-5"},
	"openai/gpt-5 openrouter":                            {"openai/gpt-5"},
	"openai/gpt-5.5 amazon-bedrock":                      {"openai.gpt-5.5"},
	"openai/gpt-5.5 azure":                               {"gpt-5.5"},
	"openai/gpt-5.5 azure-cognitive-services":            {"gpt-5.5"},
}

func TestFixtureMapping(t *testing.T) {
	res := run(t, testsource.Fixture(t), noLinks)
	if got := mapping(res.Catalog); !reflect.DeepEqual(got, fixtureMapping) {
		t.Errorf("mapping differs from the independently worked-out mapping\n got: %v\nwant: %v", got, fixtureMapping)
	}
	if len(res.Catalog.Models) != 10 {
		t.Errorf("%d canonical models, want 10", len(res.Catalog.Models))
	}
	if p := res.Catalog.Models["google/gemini-2.0-flash"].Providers; len(p) != 0 {
		t.Errorf("google/gemini-2.0-flash has no explicit links, got %v", p)
	}
	for _, ids := range res.Catalog.Models["anthropic/claude-opus-4-6"].Providers {
		for _, n := range ids {
			if n.Origin != catalog.OriginModelsDev {
				t.Errorf("%s has origin %q without a links file", n.ID, n.Origin)
			}
		}
	}
	rep := res.Report
	if rep.Counts.Unlinked != 7 || rep.Counts.DanglingSymlinks != 1 || rep.Counts.IgnoredFiles != 1 || rep.Counts.InvalidBaseModels != 0 {
		t.Errorf("counts = %+v, want 7 unlinked, 1 dangling, 1 ignored, 0 invalid", rep.Counts)
	}
	if !reflect.DeepEqual(rep.UnmappedModels, []string{"google/gemini-2.0-flash"}) {
		t.Errorf("unmapped = %v", rep.UnmappedModels)
	}
	if res.Catalog.Source.Commit != fixtureCommit || res.Catalog.Source.License != "MIT License" {
		t.Errorf("source = %+v", res.Catalog.Source)
	}
}

// Path coincidences, namespace substitutions, punctuation changes and
// display names must never create a mapping: the fixture's unlinked files
// are exactly such near-misses.
func TestFixtureNearMissesStayUnmapped(t *testing.T) {
	res := run(t, testsource.Fixture(t), noLinks)
	mapped := map[string]bool{}
	for _, m := range res.Catalog.Models {
		for p, ids := range m.Providers {
			for _, n := range ids {
				mapped[p+":"+n.ID] = true
			}
		}
	}
	for _, id := range []string{
		"anthropic:claude-opus-4-6", "anthropic:claude-sonnet-4-5", "openai:gpt-5.5", "google:gemini-2.0-flash",
		"azure:claude-opus-4-6", "amazon-bedrock:au.anthropic.claude-opus-4-6-v1", "amazon-bedrock:us.anthropic.claude-opus-4-7",
		"openrouter:qwen/qwen3-coder-next", "zhipuai:glm-4.6v-flash",
	} {
		if mapped[id] {
			t.Errorf("%s is mapped; it has no explicit base_model", id)
		}
	}
}

func TestStratosLinksRecordTheirOrigin(t *testing.T) {
	links := linksJSON(fixtureCommit, map[string][][2]string{
		"anthropic":      {{"claude-opus-4-6", "anthropic/claude-opus-4-6"}},
		"amazon-bedrock": {{"us.anthropic.claude-opus-4-7", "anthropic/claude-opus-4-7"}},
	})
	res := run(t, testsource.Fixture(t), links)
	m := res.Catalog.Models
	if got := withoutCost(m["anthropic/claude-opus-4-6"].Providers["anthropic"]); !reflect.DeepEqual(got, []catalog.NativeID{{ID: "claude-opus-4-6", Origin: catalog.OriginStratos}}) {
		t.Errorf("anthropic link = %v", got)
	}
	want := []catalog.NativeID{{ID: "jp.anthropic.claude-opus-4-7", Origin: catalog.OriginModelsDev}, {ID: "us.anthropic.claude-opus-4-7", Origin: catalog.OriginStratos}}
	if got := withoutCost(m["anthropic/claude-opus-4-7"].Providers["amazon-bedrock"]); !reflect.DeepEqual(got, want) {
		t.Errorf("bedrock = %v, want %v (byte order, both origins)", got, want)
	}
	if res.Report.Counts.StratosLinks != 2 || res.Report.Counts.Unlinked != 5 {
		t.Errorf("counts = %+v", res.Report.Counts)
	}
}

// withoutCost leaves out the prices, for tests of the mapping alone.
func withoutCost(ids []catalog.NativeID) []catalog.NativeID {
	out := make([]catalog.NativeID, len(ids))
	for i, n := range ids {
		out[i] = catalog.NativeID{ID: n.ID, Origin: n.Origin}
	}
	return out
}

func TestNativeIDsCarryTheProviderPrice(t *testing.T) {
	links := linksJSON(fixtureCommit, map[string][][2]string{"anthropic": {{"claude-opus-4-6", "anthropic/claude-opus-4-6"}}})
	res := run(t, testsource.Fixture(t), links)
	got := res.Catalog.Models["anthropic/claude-opus-4-6"].Providers["anthropic"][0].Cost
	cacheRead, cacheWrite := 0.5, 6.25
	want := &modelsapi.Price{Input: 5, Output: 25, CacheRead: &cacheRead, CacheWrite: &cacheWrite}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("anthropic claude-opus-4-6 cost = %+v, want %+v (the [cost] table of its provider file)", got, want)
	}
}

func TestStratosLinkErrors(t *testing.T) {
	cases := []struct {
		name  string
		links map[string][][2]string
		want  string
	}{
		{"missing canonical", map[string][][2]string{"anthropic": {{"claude-opus-4-6", "anthropic/claude-opus-9"}}},
			`groups[0].links[0]: canonical model "anthropic/claude-opus-9" has no file models/anthropic/claude-opus-9.toml at commit ` + fixtureCommit},
		{"missing provider file", map[string][][2]string{"anthropic": {{"claude-opus-9", "anthropic/claude-opus-4-6"}}},
			"provider file providers/anthropic/models/claude-opus-9.toml does not exist at commit " + fixtureCommit},
		{"dangling provider file", map[string][][2]string{"zhipuai": {{"glm-4.6v-flash", "google/gemini-2.5-pro"}}},
			"providers/zhipuai/models/glm-4.6v-flash.toml is a dangling link"},
		{"contradicts upstream", map[string][][2]string{"openai": {{"gpt-5", "openai/gpt-5.5"}}},
			"but providers/openai/models/gpt-5.toml has base_model openai/gpt-5"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := FromSource(context.Background(), Options{Source: testsource.Fixture(t), LinksName: "links.json", LinksJSON: linksJSON(fixtureCommit, c.links)})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error = %v, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestDuplicateLinksAreRejected(t *testing.T) {
	dup := []byte(`{"schema": "stratos.models.links.v1", "reviewedAgainst": "x", "groups": [
		{"provider": "anthropic", "reason": "a", "links": [{"nativeId": "claude-opus-4-6", "model": "anthropic/claude-opus-4-6"}]},
		{"provider": "anthropic", "reason": "b", "links": [{"nativeId": "claude-opus-4-6", "model": "anthropic/claude-opus-4-6"}]}]}`)
	_, err := FromSource(context.Background(), Options{Source: testsource.Fixture(t), LinksName: "links.json", LinksJSON: dup})
	if err == nil || !strings.Contains(err.Error(), "groups[0].links[0] and groups[1].links[0] both link anthropic:claude-opus-4-6") {
		t.Fatalf("error = %v", err)
	}
}

func TestRedundantAndStaleLinksWarn(t *testing.T) {
	links := linksJSON("0000000000000000000000000000000000000000", map[string][][2]string{"openai": {{"gpt-5", "openai/gpt-5"}}})
	res := run(t, testsource.Fixture(t), links)
	if got := withoutCost(res.Catalog.Models["openai/gpt-5"].Providers["openai"]); !reflect.DeepEqual(got, []catalog.NativeID{{ID: "gpt-5", Origin: catalog.OriginModelsDev}}) {
		t.Errorf("a redundant Stratos link must leave the upstream link in place: %v", got)
	}
	if len(res.Report.RedundantLinks) != 1 || len(res.Report.Warnings) != 2 {
		t.Fatalf("redundant = %v, warnings = %v", res.Report.RedundantLinks, res.Report.Warnings)
	}
	if !strings.Contains(res.Report.Warnings[0], "reviewed against 0000000000000000000000000000000000000000") ||
		!strings.Contains(res.Report.Warnings[1], "now an upstream base_model link") {
		t.Errorf("warnings = %v", res.Report.Warnings)
	}
}

// buildTree writes a small source tree for cases the fixture cannot show.
func buildTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	files["REVISION"] = fixtureCommit + " 2026-07-02T00:40:28+08:00\n"
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const canonical = `name = "M"
attachment = false
reasoning = true
tool_call = true
open_weights = false
[limit]
context = 1_000
[modalities]
input = ["text"]
output = ["text"]
`

func TestInvalidBaseModelIsReportedNotMapped(t *testing.T) {
	root := buildTree(t, map[string]string{
		"models/acme/m1.toml":          canonical,
		"providers/p/provider.toml":    `name = "P"`,
		"providers/p/models/ok.toml":   `base_model = "acme/m1"`,
		"providers/p/models/typo.toml": `base_model = "acme/m2"`,
		"providers/p/models/num.toml":  `base_model = 3`,
		"providers/p/models/m1.toml":   `name = "M"`, // a path coincidence with acme/m1's basename
	})
	if err := os.Symlink("../../p/models/gone.toml", filepath.Join(root, "providers/p/models/dangling.toml")); err != nil {
		t.Fatal(err)
	}
	res := run(t, root, noLinks)
	if got := mapping(res.Catalog); !reflect.DeepEqual(got, map[string][]string{"acme/m1 p": {"ok"}}) {
		t.Errorf("mapping = %v", got)
	}
	want := []InvalidBaseModel{
		{Path: "providers/p/models/num.toml", Provider: "p", NativeID: "num", BaseModel: "3", Reason: "base_model is not a string"},
		{Path: "providers/p/models/typo.toml", Provider: "p", NativeID: "typo", BaseModel: "acme/m2", Reason: "base_model names no file under models/"},
	}
	if !reflect.DeepEqual(res.Report.InvalidBaseModels, want) {
		t.Errorf("invalid = %+v", res.Report.InvalidBaseModels)
	}
	if len(res.Report.DanglingSymlinks) != 1 || res.Report.DanglingSymlinks[0].Path != "providers/p/models/dangling.toml" {
		t.Errorf("dangling = %+v", res.Report.DanglingSymlinks)
	}
	if res.Report.Counts.Unlinked != 1 {
		t.Errorf("unlinked = %d, want 1 (m1.toml)", res.Report.Counts.Unlinked)
	}
}

func TestCanonicalFieldErrors(t *testing.T) {
	cases := map[string]string{
		"missing tool_call": strings.Replace(canonical, "tool_call = true\n", "", 1),
		"string context":    strings.Replace(canonical, "context = 1_000", `context = "1000"`, 1),
		"output not a list": strings.Replace(canonical, `output = ["text"]`, `output = "text"`, 1),
		"negative context":  strings.Replace(canonical, "context = 1_000", "context = -1", 1),
		"empty name":        strings.Replace(canonical, `name = "M"`, `name = ""`, 1),
		"missing limit":     strings.Replace(canonical, "[limit]\ncontext = 1_000\n", "", 1),
	}
	wants := map[string]string{
		"missing tool_call": "models/acme/m1.toml: field tool_call is missing (it must be a boolean)",
		"string context":    "models/acme/m1.toml: line 7: field limit.context: cannot decode TOML string into int64",
		"output not a list": "models/acme/m1.toml: line 10: field modalities.output: cannot decode TOML string into []string",
		"negative context":  "models/acme/m1.toml: field limit.context must be a non-negative integer, found -1",
		"empty name":        "models/acme/m1.toml: field name is missing (it must be a non-empty string)",
		"missing limit":     "models/acme/m1.toml: field limit.context is missing (it must be a non-negative integer)",
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			root := buildTree(t, map[string]string{"models/acme/m1.toml": content, "providers/p/provider.toml": `name = "P"`})
			_, err := FromSource(context.Background(), Options{Source: root, LinksName: "links.json", LinksJSON: noLinks})
			if err == nil || !strings.Contains(err.Error(), wants[name]) {
				t.Fatalf("error = %v, want %q", err, wants[name])
			}
		})
	}
}

// copyReversed copies a tree creating files in reverse order, so directory
// order differs from the original's.
func copyReversed(t *testing.T, src string) string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	for i := len(files) - 1; i >= 0; i-- {
		rel, _ := filepath.Rel(src, files[i])
		data, err := os.ReadFile(files[i])
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

func TestDeterministic(t *testing.T) {
	fixture := testsource.Fixture(t)
	links := linksJSON(fixtureCommit, map[string][][2]string{"anthropic": {{"claude-opus-4-6", "anthropic/claude-opus-4-6"}}})
	first := run(t, fixture, links).JSON
	for i := 0; i < 3; i++ {
		if again := run(t, fixture, links).JSON; !bytes.Equal(first, again) {
			t.Fatal("two generations from the same input differ")
		}
	}
	if other := run(t, copyReversed(t, testsource.FixtureDir(t)), links).JSON; !bytes.Equal(first, other) {
		t.Fatal("generation depends on the order files were created in")
	}
	// The output is the indexed layout and decodes to the same catalog.
	full, err := catalog.Load(first)
	if err != nil {
		t.Fatal(err)
	}
	reencoded, err := full.Encode()
	if err != nil || !bytes.Equal(reencoded, first) {
		t.Fatalf("decode + encode is not the identity: %v", err)
	}
}

func TestWriteCatalogReplacesAtomically(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	path, err := WriteCatalog(dir, []byte("one\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WriteCatalog(dir, []byte("two\n")); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	entries, _ := os.ReadDir(dir)
	if string(got) != "two\n" || len(entries) != 1 {
		t.Errorf("content %q, %d entries (temporary files left behind?)", got, len(entries))
	}
}
