package modelsdev

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/stratos-models/internal/testsource"
)

// writeTree creates files (slash paths → content) under a temp dir.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
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

func symlink(t *testing.T, root, target, link string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(link))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

const canonicalToml = "name = \"M\"\ntool_call = true\n"

func baseTree() map[string]string {
	return map[string]string{
		"models/acme/m1.toml":             canonicalToml,
		"providers/p/provider.toml":       `name = "P"`,
		"providers/q/provider.toml":       `name = "Q"`,
		"providers/p/models/m1.toml":      `base_model = "acme/m1"`,
		"providers/p/models/ns/m1:x.toml": `base_model = "acme/m1"`,
	}
}

func offeringIDs(tr *Tree) []string {
	var out []string
	for _, o := range tr.Offerings {
		out = append(out, o.Provider+":"+o.NativeID)
	}
	return out
}

func TestReadFixture(t *testing.T) {
	tr, err := Read(open(t, testsource.Fixture(t)))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Canonical) != 10 || len(tr.Providers) != 13 {
		t.Errorf("canonical=%d providers=%d, want 10 and 13", len(tr.Canonical), len(tr.Providers))
	}
	if !reflect.DeepEqual(tr.Ignored, []string{"providers/openrouter/models/qwen/qwen3-coder-next"}) {
		t.Errorf("ignored = %v", tr.Ignored)
	}
	wantDangling := []Dangling{{Path: "providers/zhipuai/models/glm-4.6v-flash.toml", Target: "providers/zai/models/glm-4.6v-flash.toml", Reason: reasonMissing}}
	if !reflect.DeepEqual(tr.Dangling, wantDangling) {
		t.Errorf("dangling = %+v", tr.Dangling)
	}
	byID := map[string]Offering{}
	for _, o := range tr.Offerings {
		byID[o.Provider+":"+o.NativeID] = o
	}
	// The fixture keeps the symlink flattened to its target text.
	acs := byID["azure-cognitive-services:gpt-5.5"]
	if acs.Resolved != "providers/azure/models/gpt-5.5.toml" || acs.BaseModel != "openai/gpt-5.5" {
		t.Errorf("azure-cognitive-services:gpt-5.5 = %+v", acs)
	}
	if o, ok := byID["amazon-bedrock:jp.anthropic.claude-sonnet-4-5-20250929-v1:0"]; !ok || o.BaseModel != "anthropic/claude-sonnet-4-5" {
		t.Errorf("':' in native ID: %+v %v", o, ok)
	}
	if o := byID["anthropic:claude-opus-4-6"]; o.BaseModel != nil {
		t.Errorf("anthropic:claude-opus-4-6 has base_model %v; the fixture file has none", o.BaseModel)
	}
}

// open opens a source directory or archive, failing t on error.
func open(t *testing.T, path string) *Source {
	t.Helper()
	src, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// The archive and the directory it was packed from read the same.
func TestReadArchiveMatchesDirectory(t *testing.T) {
	fromArchive, err := Read(open(t, testsource.Fixture(t)))
	if err != nil {
		t.Fatal(err)
	}
	fromDir, err := Read(open(t, testsource.FixtureDir(t)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromArchive, fromDir) {
		t.Errorf("archive and directory differ:\n%+v\n%+v", fromArchive, fromDir)
	}
}

func TestReadFollowsSymlinksAndStubs(t *testing.T) {
	root := linkTree(t)
	for name, src := range map[string]string{"directory": root, "archive": packDir(t, root)} {
		t.Run(name, func(t *testing.T) { checkLinkTree(t, src) })
	}
}

// linkTree is a source with every kind of link: symlinks and flattened
// stubs that resolve, and symlinks that dangle for each reason.
func linkTree(t *testing.T) string {
	files := baseTree()
	files["providers/q/models/stub.toml"] = "../../p/models/m1.toml\n"
	files["providers/q/models/stub-chain.toml"] = "../../q/models/stub.toml"
	root := writeTree(t, files)
	symlink(t, root, "../../p/models/ns/m1:x.toml", "providers/q/models/link.toml")
	symlink(t, root, "../../p/models/gone.toml", "providers/q/models/dangling.toml")
	symlink(t, root, "/etc/hostname", "providers/q/models/absolute.toml")
	symlink(t, root, "../../../../outside.toml", "providers/q/models/outside.toml")
	symlink(t, root, "loop-b.toml", "providers/q/models/loop-a.toml")
	symlink(t, root, "loop-a.toml", "providers/q/models/loop-b.toml")
	symlink(t, root, "../../p", "providers/q/models/dir.toml")
	return root
}

func checkLinkTree(t *testing.T, src string) {
	tr, err := Read(open(t, src))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"p:m1", "p:ns/m1:x", "q:link", "q:stub", "q:stub-chain"}
	if got := offeringIDs(tr); !reflect.DeepEqual(got, want) {
		t.Errorf("offerings = %v, want %v", got, want)
	}
	for _, o := range tr.Offerings {
		if o.BaseModel != "acme/m1" {
			t.Errorf("%s:%s base_model = %v", o.Provider, o.NativeID, o.BaseModel)
		}
	}
	reasons := map[string]string{}
	for _, d := range tr.Dangling {
		reasons[strings.TrimPrefix(d.Path, "providers/q/models/")] = d.Reason
	}
	wantReasons := map[string]string{
		"dangling.toml": reasonMissing, "absolute.toml": reasonAbsolute, "outside.toml": reasonOutside,
		"loop-a.toml": reasonTooManyHops, "loop-b.toml": reasonTooManyHops, "dir.toml": reasonDirectory,
	}
	if !reflect.DeepEqual(reasons, wantReasons) {
		t.Errorf("dangling reasons = %v, want %v", reasons, wantReasons)
	}
}

func TestReadErrors(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(map[string]string)
		want  string
		empty bool
	}{
		{"parse error names file and line", func(f map[string]string) { f["providers/p/models/bad.toml"] = "name = \"x\"\ncost = {" },
			"providers/p/models/bad.toml: line 2", false},
		{"canonical ID depth", func(f map[string]string) { f["models/acme/sub/m.toml"] = canonicalToml },
			`ID "acme/sub/m" must have the form <creator>/<model>`, false},
		{"provider name", func(f map[string]string) { f["providers/q/provider.toml"] = `name = ""` },
			"providers/q/provider.toml: name must be a non-empty string", false},
		{"provider name type", func(f map[string]string) { f["providers/q/provider.toml"] = "name = 3" },
			"providers/q/provider.toml: line 1: field name: cannot decode TOML integer into string", false},
		{"misspelt base_model", func(f map[string]string) { f["providers/p/models/m1.toml"] = `base_modle = "acme/m1"` },
			"providers/p/models/m1.toml: unknown field base_modle (line 1)", false},
		{"unknown canonical fields", func(f map[string]string) {
			f["models/acme/m1.toml"] = canonicalToml + "context_window = 3\n[limit]\nctx = 1\n"
		},
			"models/acme/m1.toml: unknown field context_window (line 3), limit.ctx (line 5)", false},
		{"no canonical models", nil, "no canonical models", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := baseTree()
			if c.edit != nil {
				c.edit(files)
			}
			root := writeTree(t, files)
			if c.empty {
				os.RemoveAll(filepath.Join(root, "models"))
			}
			_, err := Read(open(t, root))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error = %v, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestReadSkipsProviderDirsWithoutProviderToml(t *testing.T) {
	files := baseTree()
	files["providers/orphan/models/m1.toml"] = `base_model = "acme/m1"`
	tr, err := Read(open(t, writeTree(t, files)))
	if err != nil {
		t.Fatal(err)
	}
	if got := offeringIDs(tr); !reflect.DeepEqual(got, []string{"p:m1", "p:ns/m1:x"}) {
		t.Errorf("offerings = %v", got)
	}
	if !reflect.DeepEqual(tr.Ignored, []string{"providers/orphan/"}) {
		t.Errorf("ignored = %v", tr.Ignored)
	}
}

func TestLinkStubTarget(t *testing.T) {
	for content, want := range map[string]bool{
		"../../azure/models/gpt-5.5.toml\n": true,
		"../x.toml":                         true,
		"name = \"x.toml\"":                 false,
		"[x.toml]":                          false,
		"# x.toml":                          false,
		"a\nb.toml":                         false,
		"":                                  false,
		"../x.json":                         false,
	} {
		if _, got := linkStubTarget([]byte(content)); got != want {
			t.Errorf("linkStubTarget(%q) = %v, want %v", content, got, want)
		}
	}
}
