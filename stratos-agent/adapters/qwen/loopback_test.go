package qwen

import (
	"context"
	"testing"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
)

// With a prompt that runs a shell command, Qwen Code connects to nothing
// but loopback (no update check, usage statistics or telemetry in the
// private configuration): strace records every connect(2) of the CLI and
// its children.
func TestNoConnectionBeyondLoopback(t *testing.T) {
	b := qwenBed(t, adaptertest.ParseScript(t, `{"turns":[
		{"match":{"marker":"[net]"},"reply":[{"toolUse":{"name":"run_shell_command","input":{"command":"echo offline","description":"say it"}}}]},
		{"match":{"marker":"[net]"},"reply":[{"text":"done"}]}]}`), true)
	tr := adaptertest.TraceConnects(t, qwenBin(t))
	b.Env = append(b.Env, EnvBinary+"="+tr.Wrapper)
	spec := adapter.Spec{Name: "tester", Models: []string{"openai/fake-model"}, WorkingDirectory: b.Work}
	a := b.Open(NewFactory(b.options()), spec, noToolHooks{&adaptertest.Hooks{}})
	if res, err := a.Execute(b.Context(), "[net] go"); err != nil || res.Text != "done" {
		t.Fatalf("execute = %+v, %v", res, err)
	}
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	tr.CheckLoopbackOnly(t, "Qwen Code")
}
