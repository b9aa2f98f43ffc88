package worker

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeCLI writes an executable that exits with code (its login check's
// answer).
func fakeCLI(t *testing.T, code string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "cli")
	if err := os.WriteFile(p, []byte("#!/bin/sh\nexit "+code+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func capabilityOf(caps []Capability, harness string) (Capability, bool) {
	for _, c := range caps {
		if c.Harness == harness {
			return c, true
		}
	}
	return Capability{}, false
}

// A harness's CLI alone does not make a worker take its agents: it needs a
// credential variable or the CLI's own login; the test harness needs
// neither, and a harness that reaches Ollama takes its Ollama agents
// without one.
func TestCapabilitiesNeedACredential(t *testing.T) {
	loggedOut, loggedInCLI := fakeCLI(t, "1"), fakeCLI(t, "0")
	env := map[string]string{"PATH": "/nonexistent", "OLLAMA_HOST": "http://127.0.0.1:9", "STRATOS_CLAUDE": loggedOut, "STRATOS_CODEX": loggedInCLI, "STRATOS_OPENCODE": loggedOut}
	caps := Capabilities(context.Background(), func(k string) string { return env[k] })
	want := map[string]struct{ authenticated, ollama bool }{
		"claude-code": {false, false}, // logged out, no variable
		"codex":       {true, true},   // its login check passes
		"opencode":    {false, true},  // Ollama only
		"test":        {true, false},
	}
	for h, w := range want {
		c, ok := capabilityOf(caps, h)
		if !ok {
			t.Errorf("%s: not found (%+v)", h, caps)
			continue
		}
		if c.Authenticated() != w.authenticated || c.Ollama != w.ollama {
			t.Errorf("%s: %+v: authenticated %v, ollama %v; want %v, %v", h, c, c.Authenticated(), c.Ollama, w.authenticated, w.ollama)
		}
	}
	before := describe(caps)
	for _, s := range []string{"claude-code (not taken: no credential)", "codex (logged in)", "opencode (provider ollama only: no credential)"} {
		if !strings.Contains(before, s) {
			t.Errorf("describe: %q lacks %q", before, s)
		}
	}
	env["ANTHROPIC_API_KEY"] = "sk-never-read"
	caps = Capabilities(context.Background(), func(k string) string { return env[k] })
	c, _ := capabilityOf(caps, "claude-code")
	if !c.Authenticated() || c.LoggedIn || len(c.Credentials) != 1 || c.Credentials[0] != "ANTHROPIC_API_KEY" {
		t.Errorf("claude-code with its key: %+v, want the variable's name and no login check", c)
	}
	d := describe(caps)
	for _, s := range []string{"claude-code (credentials: ANTHROPIC_API_KEY)", "opencode (credentials: ANTHROPIC_API_KEY)"} {
		if !strings.Contains(d, s) {
			t.Errorf("describe: %q lacks %q", d, s)
		}
	}
	if strings.Contains(d, "sk-never-read") {
		t.Errorf("describe shows a credential: %q", d)
	}
}
