package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/clierr"
)

func TestLoadMissingFileGivesDefaults(t *testing.T) {
	s, err := Load(filepath.Join(t.TempDir(), "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Agents.MaxConcurrent != 10 || s.Agents.MaxOutstanding != 100 {
		t.Fatalf("defaults = %+v", s)
	}
}

func TestParse(t *testing.T) {
	cases := []struct {
		name, json string
		want       Agents
		errKey     string // "" means no error
	}{
		{"empty object", `{}`, Agents{10, 100}, ""},
		{"partial", `{"agents":{"maxConcurrent":3}}`, Agents{3, 100}, ""},
		{"both", `{"agents":{"maxConcurrent":2,"maxOutstanding":5}}`, Agents{2, 5}, ""},
		{"unknown top key", `{"agent":{}}`, Agents{}, "agent"},
		{"unknown agents key", `{"agents":{"maxConcurent":3}}`, Agents{}, "agents.maxConcurent"},
		{"wrong type", `{"agents":{"maxConcurrent":"3"}}`, Agents{}, "agents.maxConcurrent"},
		{"zero", `{"agents":{"maxOutstanding":0}}`, Agents{}, "agents.maxOutstanding"},
		{"negative", `{"agents":{"maxConcurrent":-1}}`, Agents{}, "agents.maxConcurrent"},
		{"fraction", `{"agents":{"maxConcurrent":1.5}}`, Agents{}, "agents.maxConcurrent"},
		{"agents not object", `{"agents":[]}`, Agents{}, "agents"},
		{"not an object", `[1]`, Agents{}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Parse("/h/.stratos/settings.json", []byte(c.json))
			wantErr := c.errKey != "" || c.name == "not an object"
			if !wantErr {
				if err != nil || s.Agents != c.want {
					t.Fatalf("Parse = %+v, %v; want %+v", s.Agents, err, c.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("Parse(%s) succeeded, want error", c.json)
			}
			ce := clierr.As(err)
			if ce.Details["file"] != "/h/.stratos/settings.json" || ce.Details["key"] != c.errKey {
				t.Errorf("details = %v, want file and key %q", ce.Details, c.errKey)
			}
			if !strings.Contains(ce.Message, "/h/.stratos/settings.json") || (c.errKey != "" && !strings.Contains(ce.Message, c.errKey)) {
				t.Errorf("message %q must name the file and key %q", ce.Message, c.errKey)
			}
			if ce.Exit != clierr.ExitUsage {
				t.Errorf("exit = %d, want 2", ce.Exit)
			}
		})
	}
}

func TestLoadUnreadable(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "settings.json")
	if err := os.Mkdir(p, 0o755); err != nil { // a directory cannot be read as a file
		t.Fatal(err)
	}
	if _, err := Load(p); err == nil {
		t.Fatal("Load of a directory succeeded")
	}
}

func TestParseDefinitionTimeout(t *testing.T) {
	cases := []struct {
		name, json string
		want       time.Duration
		errKey     string // "" means no error
	}{
		{"default", `{}`, DefaultDefinitionTimeout, ""},
		{"seconds", `{"build":{"definitionTimeout":"5s"}}`, 5 * time.Second, ""},
		{"minutes", `{"build":{"definitionTimeout":"2m"}}`, 2 * time.Minute, ""},
		{"a number", `{"build":{"definitionTimeout":30}}`, 0, "build.definitionTimeout"},
		{"no unit", `{"build":{"definitionTimeout":"30"}}`, 0, "build.definitionTimeout"},
		{"zero", `{"build":{"definitionTimeout":"0s"}}`, 0, "build.definitionTimeout"},
		{"unknown build key", `{"build":{"timeout":"5s"}}`, 0, "build.timeout"},
		{"build not object", `{"build":"5s"}`, 0, "build"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Parse("/home/u/.stratos/settings.json", []byte(c.json))
			if c.errKey == "" {
				if err != nil || s.Build.DefinitionTimeout != c.want {
					t.Fatalf("Parse = %v, %v; want %v", s.Build.DefinitionTimeout, err, c.want)
				}
				return
			}
			ce := clierr.As(err)
			if err == nil || ce.Details["key"] != c.errKey || !strings.Contains(ce.Message, "settings.json") {
				t.Fatalf("Parse error = %v (details %v), want one naming the file and key %s", err, ce.Details, c.errKey)
			}
		})
	}
}

// Decisions have admission limits of their own, read and checked as the
// agents' are.
func TestParseDecisions(t *testing.T) {
	s, err := Parse("/h/.stratos/settings.json", []byte(`{"agents":{"maxConcurrent":2},"decisions":{"maxConcurrent":32}}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Decisions != (Decisions{MaxConcurrent: 32, MaxOutstanding: DefaultDecisionsMaxOutstanding}) || s.Agents != (Agents{2, DefaultMaxOutstanding}) {
		t.Errorf("parsed %+v", s)
	}
	if d := Default().Decisions; d.MaxConcurrent != 8 || d.MaxOutstanding != 1000 {
		t.Errorf("defaults %+v", d)
	}
	for raw, key := range map[string]string{
		`{"decisions":{"maxConcurrent":0}}`:    "decisions.maxConcurrent",
		`{"decisions":{"maxOutstanding":"9"}}`: "decisions.maxOutstanding",
		`{"decisions":{"samples":3}}`:          "decisions.samples",
		`{"decisions":true}`:                   "decisions",
	} {
		_, err := Parse("/h/.stratos/settings.json", []byte(raw))
		if ce := clierr.As(err); err == nil || ce.Details["key"] != key || !strings.Contains(ce.Message, key) {
			t.Errorf("%s: %v; want an error about %s", raw, err, key)
		}
	}
}

// engine chooses where stratos run runs; only the known engines are
// accepted, and the file names the key.
func TestEngine(t *testing.T) {
	s, err := Parse("settings.json", []byte(`{"engine": "temporal"}`))
	if err != nil || s.Engine != EngineTemporal {
		t.Fatalf("engine temporal: %+v, %v", s, err)
	}
	if s, _ := Parse("settings.json", []byte(`{}`)); s.Engine != EngineLocal {
		t.Errorf("default engine %q, want local", s.Engine)
	}
	for _, bad := range []string{`{"engine": "temporl"}`, `{"engine": 1}`} {
		if _, err := Parse("settings.json", []byte(bad)); err == nil || !strings.Contains(err.Error(), `"engine" must be "local" or "temporal"`) {
			t.Errorf("%s: %v, want the key and its values named", bad, err)
		}
	}
}
