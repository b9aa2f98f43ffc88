package qwen

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
)

// With a prompt that runs a shell command, Qwen Code connects to nothing
// but loopback (no update check, usage statistics or telemetry in the
// private configuration): strace records every connect(2) of the CLI and
// its children.
func TestNoConnectionBeyondLoopback(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Fatal("strace is not installed: install it (apt-get install strace) to run the no-network check")
	}
	b := qwenBed(t, adaptertest.ParseScript(t, `{"turns":[
		{"match":{"marker":"[net]"},"reply":[{"toolUse":{"name":"run_shell_command","input":{"command":"echo offline","description":"say it"}}}]},
		{"match":{"marker":"[net]"},"reply":[{"text":"done"}]}]}`), true)
	trace := filepath.Join(t.TempDir(), "connect.trace")
	wrapper := filepath.Join(t.TempDir(), "qwen-traced")
	script := "#!/bin/sh\nexec " + strace + " -f -qq -e trace=connect -o " + trace + " " + qwenBin(t) + ` "$@"` + "\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	b.Env = append(b.Env, EnvBinary+"="+wrapper)
	spec := adapter.Spec{Name: "tester", Models: []string{"openai/fake-model"}, WorkingDirectory: b.Work}
	a := b.Open(NewFactory(b.options()), spec, noToolHooks{&adaptertest.Hooks{}})
	if res, err := a.Execute(b.Context(), "[net] go"); err != nil || res.Text != "done" {
		t.Fatalf("execute = %+v, %v", res, err)
	}
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	inet := regexp.MustCompile(`sa_family=AF_INET6?, .*?(inet_addr\("([^"]+)"\)|inet_pton\(AF_INET6, "([^"]+)")`)
	loopbacks, sc := 0, bufio.NewScanner(f)
	for sc.Scan() {
		m := inet.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		addr := m[2] + m[3]
		if addr == "127.0.0.1" || addr == "::1" || addr == "::ffff:127.0.0.1" {
			loopbacks++
			continue
		}
		t.Errorf("Qwen Code connected beyond loopback: %s", sc.Text())
	}
	if loopbacks == 0 {
		t.Fatalf("the trace shows no loopback connection either: strace did not trace the CLI")
	}
}
