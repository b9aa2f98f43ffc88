package command

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/shared/sibling"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/harnesses"
	"github.com/stratoscli/stratos/stratos-agent/host"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

// pencil is a harness that exists only in this file: everything Stratos
// needs to know about it is its registration below, and registering it
// is the one line in withPencil. The tests follow it into the agent
// host's lookup, `stratos tools list` and harness selection.
func pencil(adapter.Options) adapter.Harness {
	return adapter.Harness{
		Name: "pencil", Title: "Pencil", Capabilities: adapter.Capabilities{SelectsModels: true},
		New: func(spec adapter.Spec, _ func(adapter.Event), _ adapter.Hooks) (adapter.Adapter, error) {
			return &pencilSession{spec: spec}, nil
		},
		Tools: &tools.Declaration{Harness: "pencil", Removal: "erasers",
			Tools: []tools.Declared{tools.Removable("read", "look"), tools.Removable("sharpen", "sharpener")}},
		// First party for Mistral's models, which no built-in harness is.
		Selection: &modelsapi.HarnessRules{Name: "Pencil", FirstPartyCreator: "mistral", Creators: []string{"mistral"},
			DefaultProvider: "mistral", Providers: map[string]*modelsapi.HarnessProvider{"mistral": {Note: "drawn by hand"}}},
		Docs: adapter.Docs{Page: "harness-pencil.md"},
	}
}

func withPencil(o adapter.Options) []adapter.Harness { return append(harnesses.Builtin(o), pencil(o)) }

// pencilSession answers with its harness, model and the prompt.
type pencilSession struct{ spec adapter.Spec }

var _ adapter.Adapter = (*pencilSession)(nil)

func (p *pencilSession) Initialize(context.Context) error { return nil }
func (p *pencilSession) Execute(_ context.Context, prompt string) (adapter.Result, error) {
	return adapter.Result{Text: p.spec.Harness + " " + strings.Join(p.spec.Models, ",") + ": " + prompt}, nil
}
func (p *pencilSession) Cancel()                     {}
func (p *pencilSession) Close(context.Context) error { return nil }

func TestARegisteredHarnessIsInToolsList(t *testing.T) {
	root := func() *cli.Command {
		return &cli.Command{Name: "stratos-agent", Commands: []*cli.Command{toolsCommand(withPencil)}}
	}
	var out, errOut bytes.Buffer
	if code := cliapp.Run(root(), []string{"stratos-agent", "tools", "list", "pencil", "--json"}, cliapp.IO{Stdout: &out, Stderr: &errOut}); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var l tools.Listing
	if err := json.Unmarshal(out.Bytes(), &l); err != nil {
		t.Fatal(err)
	}
	want := tools.Listing{Harnesses: []tools.HarnessListing{{Harness: "pencil", Removal: "erasers", AlwaysOn: []tools.ListedTool{},
		Tools: []tools.ListedTool{{Name: "read", Canonical: true, Native: []string{"look"}}, {Name: "sharpen", Native: []string{"sharpener"}}}}}}
	if got, _ := json.Marshal(l); string(got) != string(must(json.Marshal(want))) {
		t.Errorf("listing = %s\nwant      %s", got, must(json.Marshal(want)))
	}
	out.Reset()
	if code := cliapp.Run(root(), []string{"stratos-agent", "tools", "list"}, cliapp.IO{Stdout: &out, Stderr: &errOut}); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "pencil: removed through erasers") || !strings.Contains(out.String(), "claude-code: removed through") {
		t.Errorf("text listing misses a harness:\n%s", out.String())
	}
}

func TestARegisteredHarnessIsFoundAndSelectedByTheHost(t *testing.T) {
	buildCatalogTool(t)
	h, err := host.New(host.Options{Home: t.TempDir(), Harnesses: withPencil})
	if err != nil {
		t.Fatal(err)
	}
	h.SetPeer(nopPeer{})
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "workflow.yaml"), []byte("name: wf\nshortDescription: x\nlongDescription: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	call(t, h, agentproto.MethodInitialize, agentproto.InitializeParams{ProtocolVersion: agentproto.ProtocolVersion,
		ExecutionID: "top", RunDir: filepath.Join(t.TempDir(), "run")})
	defer func() { _ = h.Close(ctx) }()
	for i, c := range []struct{ config, want string }{
		// Explicit: the host finds the harness by name, and its tool
		// names are valid selections.
		{`{"harness": "pencil", "model": "mistral/mistral-medium-latest", "disallowedTools": ["sharpen"]}`, "pencil mistral/mistral-medium-latest: hi"},
		// Automatic: stratos-models orders candidates with pencil's rules,
		// which the host sent; pencil is Mistral's first-party harness.
		{`{"model": "mistral/mistral-medium-latest"}`, "pencil mistral/mistral-medium-latest: hi"},
	} {
		var res agentproto.ExecuteResult
		p := agentproto.ExecuteParams{AgentID: "a" + string(rune('0'+i)), Name: "a", Call: 1, ExecutionID: "top",
			Workflow: agentproto.WorkflowRef{Name: "wf", Dir: dir}, Cwd: dir, Config: json.RawMessage(c.config),
			Prompt: agentproto.PromptSource{Text: ptr("hi")}}
		raw := call(t, h, agentproto.MethodAgentExecute, p)
		if err := json.Unmarshal(raw, &res); err != nil || res.Text == nil || *res.Text != c.want {
			t.Errorf("%s: result %s (%v), want text %q", c.config, raw, err, c.want)
		}
	}
}

func call(t *testing.T, h *host.Host, method string, params any) []byte {
	t.Helper()
	res, err := h.Handle(context.Background(), method, must(json.Marshal(params)))
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	return must(json.Marshal(res))
}

// buildCatalogTool builds the real stratos-models for the host to run.
func buildCatalogTool(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "stratos-models"), "github.com/stratoscli/stratos/stratos-models/cmd/stratos-models")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build stratos-models: %v\n%s", err, out)
	}
	t.Setenv(sibling.EnvBinDir, dir)
}

type nopPeer struct{}

func (nopPeer) Call(context.Context, string, any, any) error { return nil }
func (nopPeer) Notify(string, any) error                     { return nil }

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func ptr[T any](v T) *T { return &v }
