package candidates

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-models/internal/lookup"
)

const (
	gpt    = "openai/gpt-5.5"
	claude = "anthropic/claude-opus-4-6"
	opus47 = "anthropic/claude-opus-4-7"
	glm    = "zhipuai/glm-5"
	image  = "openai/gpt-image-1" // no tool calls, no text output
)

func data(t *testing.T) *lookup.Data {
	t.Helper()
	d, err := lookup.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// row renders a candidate as "harness model provider:nativeId".
func rows(cs []Candidate) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Harness+" "+c.Model+" "+c.Provider+":"+c.NativeID)
	}
	return out
}

func exclusions(es []Exclusion) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Harness+" "+e.Model+" "+e.Reason)
	}
	return out
}

func TestOrdering(t *testing.T) {
	cases := []struct {
		name     string
		req      Request
		want     []string
		excluded []string
	}{
		{
			name: "spec example [GPT, Claude]",
			req:  Request{Models: []string{gpt, claude}},
			want: []string{
				"codex openai/gpt-5.5 openai:gpt-5.5",
				"claude-code anthropic/claude-opus-4-6 anthropic:claude-opus-4-6",
				"opencode openai/gpt-5.5 openai:gpt-5.5",
				"opencode anthropic/claude-opus-4-6 anthropic:claude-opus-4-6",
			},
		},
		{
			name: "declared order decides within each pass",
			req:  Request{Models: []string{claude, gpt}},
			want: []string{
				"claude-code anthropic/claude-opus-4-6 anthropic:claude-opus-4-6",
				"codex openai/gpt-5.5 openai:gpt-5.5",
				"opencode anthropic/claude-opus-4-6 anthropic:claude-opus-4-6",
				"opencode openai/gpt-5.5 openai:gpt-5.5",
			},
		},
		{
			name:     "other creators only in the OpenCode pass, and need a backend",
			req:      Request{Models: []string{glm, claude}},
			want:     []string{"claude-code anthropic/claude-opus-4-6 anthropic:claude-opus-4-6", "opencode anthropic/claude-opus-4-6 anthropic:claude-opus-4-6"},
			excluded: []string{"opencode zhipuai/glm-5 no_default_provider"},
		},
		{
			name: "adapter backends",
			req:  Request{Models: []string{glm, opus47}, Backends: map[string]string{"opencode": "openrouter", "claude-code": "amazon-bedrock"}},
			want: []string{
				"claude-code anthropic/claude-opus-4-7 amazon-bedrock:global.anthropic.claude-opus-4-7",
				"opencode zhipuai/glm-5 openrouter:z-ai/glm-5",
				"opencode anthropic/claude-opus-4-7 openrouter:anthropic/claude-opus-4.7",
			},
		},
		{
			name:     "explicit harness: only that harness, declared order",
			req:      Request{Models: []string{gpt, claude}, Harness: "codex"},
			want:     []string{"codex openai/gpt-5.5 openai:gpt-5.5"},
			excluded: []string{"codex anthropic/claude-opus-4-6 no_mapping"},
		},
		{
			name:     "explicit Claude Code does not run OpenAI models",
			req:      Request{Models: []string{gpt, claude}, Harness: "claude-code"},
			want:     []string{"claude-code anthropic/claude-opus-4-6 anthropic:claude-opus-4-6"},
			excluded: []string{"claude-code openai/gpt-5.5 harness_incompatible"},
		},
		{
			name: "explicit OpenCode with other creators",
			req:  Request{Models: []string{glm, gpt}, Harness: "opencode", Provider: "openrouter"},
			want: []string{"opencode zhipuai/glm-5 openrouter:z-ai/glm-5", "opencode openai/gpt-5.5 openrouter:openai/gpt-5.5"},
		},
		{
			name: "explicit provider applies to every harness",
			req:  Request{Models: []string{gpt, claude}, Provider: "amazon-bedrock"},
			want: []string{
				"claude-code anthropic/claude-opus-4-6 amazon-bedrock:global.anthropic.claude-opus-4-6-v1",
				"opencode openai/gpt-5.5 amazon-bedrock:openai.gpt-5.5",
				"opencode anthropic/claude-opus-4-6 amazon-bedrock:global.anthropic.claude-opus-4-6-v1",
			},
			excluded: []string{"codex openai/gpt-5.5 provider_unsupported"},
		},
		{
			name: "codex on azure",
			req:  Request{Models: []string{gpt}, Harness: "codex", Provider: "azure"},
			want: []string{"codex openai/gpt-5.5 azure:gpt-5.5"},
		},
		{
			name:     "models without tools or text are excluded with a reason",
			req:      Request{Models: []string{image, gpt}},
			want:     []string{"codex openai/gpt-5.5 openai:gpt-5.5", "opencode openai/gpt-5.5 openai:gpt-5.5"},
			excluded: []string{"codex openai/gpt-image-1 no_tool_call", "opencode openai/gpt-image-1 no_tool_call"},
		},
		{
			name: "a model listed twice is tried once",
			req:  Request{Models: []string{gpt, gpt}, Harness: "codex"},
			want: []string{"codex openai/gpt-5.5 openai:gpt-5.5"},
		},
		{
			name: "ollama names are native and untranslated; no tag means latest",
			req:  Request{Models: []string{"gemma4:26b", "qwen3.5", "openai/gpt-oss-120b"}, Harness: "codex", Provider: "ollama"},
			want: []string{"codex gemma4:26b ollama:gemma4:26b", "codex qwen3.5 ollama:qwen3.5:latest",
				"codex openai/gpt-oss-120b ollama:openai/gpt-oss-120b:latest"},
		},
	}
	d := data(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Build(d, c.req)
			if err != nil {
				t.Fatal(err)
			}
			if got := rows(res.Candidates); !reflect.DeepEqual(got, c.want) {
				t.Errorf("candidates\n got: %q\nwant: %q", got, c.want)
			}
			if got := exclusions(res.Excluded); !reflect.DeepEqual(got, c.excluded) {
				t.Errorf("excluded\n got: %q\nwant: %q", got, c.excluded)
			}
			for _, cand := range res.Candidates {
				if cand.Eligibility != "provisional" {
					t.Errorf("%+v is not marked provisional", cand)
				}
			}
		})
	}
}

func TestNativeConfiguration(t *testing.T) {
	res, err := Build(data(t), Request{Models: []string{opus47, gpt}, Backends: map[string]string{"claude-code": "amazon-bedrock"}})
	if err != nil {
		t.Fatal(err)
	}
	byHarness := map[string]Native{}
	for _, c := range res.Candidates {
		if _, seen := byHarness[c.Harness]; !seen {
			byHarness[c.Harness] = c.Native
		}
	}
	want := map[string]Native{
		"claude-code": {Model: "global.anthropic.claude-opus-4-7", Env: map[string]string{"CLAUDE_CODE_USE_BEDROCK": "1"}},
		"codex":       {Model: "gpt-5.5", ModelProvider: "openai", ProviderTable: "built-in"},
		"opencode":    {Model: "anthropic/claude-opus-4-7", ProviderID: "anthropic"},
	}
	if !reflect.DeepEqual(byHarness, want) {
		t.Errorf("native = %+v", byHarness)
	}
	res, err = Build(data(t), Request{Models: []string{"qwen3.5:9b"}, Harness: "opencode", Provider: "ollama"})
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Candidates[0].Native; n.Model != "ollama/qwen3.5:9b" || n.ProviderID != "ollama" {
		t.Errorf("opencode ollama native = %+v", n)
	}
	res, err = Build(data(t), Request{Models: []string{"qwen3.5:9b"}, Harness: "codex", Provider: "ollama"})
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Candidates[0].Native; n.Model != "qwen3.5:9b" || n.ModelProvider != "stratos-ollama" || n.ProviderTable != "stratos" {
		t.Errorf("codex ollama native = %+v", n)
	}
}

func TestInvalidRequests(t *testing.T) {
	cases := []struct {
		name string
		req  Request
		code string
		exit int
		msg  string
	}{
		{"no models", Request{}, modelsapi.CodeNoModels, 2, "no model given"},
		{"unknown model", Request{Models: []string{gpt, "openai/gpt-99"}}, "unknown_model", 2, `unknown canonical model "openai/gpt-99" (catalog f3fc6922`},
		{"unknown harness", Request{Models: []string{gpt}, Harness: "claude"}, modelsapi.CodeUnknownHarness, 2, "unknown harness"},
		{"unknown provider", Request{Models: []string{gpt}, Provider: "nope"}, "unknown_provider", 2, `unknown provider "nope"`},
		{"harness/provider mismatch", Request{Models: []string{gpt}, Harness: "codex", Provider: "openrouter"}, modelsapi.CodeHarnessProviderUnsupported, 2, "harness codex does not support provider openrouter"},
		{"ollama needs a harness", Request{Models: []string{"gemma4"}, Provider: "ollama"}, modelsapi.CodeHarnessRequired, 2, "needs an explicit harness (codex or opencode)"},
		{"ollama not on claude code", Request{Models: []string{"gemma4"}, Harness: "claude-code", Provider: "ollama"}, modelsapi.CodeHarnessProviderUnsupported, 2, "harness claude-code does not support provider ollama"},
		{"bad ollama name", Request{Models: []string{"gemma4:26b:x"}, Harness: "codex", Provider: "ollama"}, modelsapi.CodeInvalidOllamaName, 2, "more than one ':'"},
		{"backend on unsupported provider", Request{Models: []string{gpt}, Backends: map[string]string{"codex": "openrouter"}}, modelsapi.CodeInvalidBackend, 2, "Codex does not support provider openrouter"},
		{"backend ollama", Request{Models: []string{gpt}, Backends: map[string]string{"codex": "ollama"}}, modelsapi.CodeInvalidBackend, 2, "explicit provider instead"},
		{"nothing usable", Request{Models: []string{image}}, "no_candidates", 1, "no usable harness/model/provider combination for openai/gpt-image-1"},
	}
	d := data(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Build(d, c.req)
			var ce *clierr.Error
			if !errors.As(err, &ce) {
				t.Fatalf("error = %v, want a *clierr.Error", err)
			}
			if ce.Code != c.code || ce.Exit != c.exit || !strings.Contains(ce.Message, c.msg) {
				t.Errorf("got %s/%d %q, want %s/%d containing %q", ce.Code, ce.Exit, ce.Message, c.code, c.exit, c.msg)
			}
		})
	}
}

func TestNoCandidatesCarriesExclusions(t *testing.T) {
	_, err := Build(data(t), Request{Models: []string{claude}, Harness: "codex"})
	ce := clierr.As(err)
	ex, ok := ce.Details["excluded"].([]Exclusion)
	if ce.Code != "no_candidates" || !ok || len(ex) != 1 || ex[0].Reason != modelsapi.ReasonNoMapping {
		t.Fatalf("error = %+v", ce)
	}
}

// TestSecondPassAndModelStringsFollowTheRules: the second pass goes through
// whichever harness's rules take it, is named after that harness, and only
// a harness whose rules say so gets "<provider>/<model>" strings — nothing
// here knows OpenCode by name.
func TestSecondPassAndModelStringsFollowTheRules(t *testing.T) {
	d := data(t)
	rules := map[string]modelsapi.HarnessRules{}
	for id, h := range d.Mapping.Harnesses {
		rules[id] = h.HarnessRules
	}
	pencil := rules["opencode"]
	pencil.Name = "Pencil"
	delete(rules, "opencode")
	rules["pencil"] = pencil
	plain := rules["codex"]
	plain.Name, plain.FirstPartyCreator, plain.SecondPass, plain.QualifiedModels = "Plain", "", false, false
	rules["plain"] = plain
	m, err := d.Mapping.WithHarnesses(rules)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Build(&lookup.Data{Catalog: d.Catalog, Mapping: m}, Request{Models: []string{gpt, glm}, Backends: map[string]string{"pencil": "openrouter"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range res.Candidates {
		got = append(got, c.Harness+" "+c.Pass+" "+c.Native.Model+" "+c.Native.ProviderID)
	}
	want := []string{"codex first-party gpt-5.5 ", "pencil pencil openrouter/openai/gpt-5.5 openrouter", "pencil pencil openrouter/z-ai/glm-5 openrouter"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("candidates = %q, want %q", got, want)
	}

	delete(rules, "pencil")
	if m, err = d.Mapping.WithHarnesses(rules); err != nil {
		t.Fatalf("rules without a second pass: %v", err)
	}
	res, err = Build(&lookup.Data{Catalog: d.Catalog, Mapping: m}, Request{Models: []string{gpt}, Harness: "plain"})
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Candidates[0].Native; n.Model != "gpt-5.5" || n.ProviderID != "" {
		t.Errorf("plain native = %+v, want the bare native ID", n)
	}
}
