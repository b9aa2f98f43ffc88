package toolchain

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/clierr"
)

func TestParseNodeVersion(t *testing.T) {
	cases := []struct {
		out     string
		version string
		major   int
		ok      bool
	}{
		{"v24.22.3\n", "24.22.3", 24, true},
		{"v20.20.2", "20.20.2", 20, true},
		{"v26.0.0-nightly2026", "26.0.0-nightly2026", 26, true},
		{"", "", 0, false},
		{"node: command not found", "", 0, false},
	}
	for _, c := range cases {
		t.Run(c.out, func(t *testing.T) {
			v, major, err := parseNodeVersion(c.out)
			if v != c.version || major != c.major || (err == nil) != c.ok {
				t.Errorf("parseNodeVersion(%q) = %q, %d, %v; want %q, %d, ok=%v", c.out, v, major, err, c.version, c.major, c.ok)
			}
		})
	}
}

// fakeNode writes an executable script that prints version like node does.
func fakeNode(t *testing.T, dir, version string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "node")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho "+version+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func envOf(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func wantCode(t *testing.T, err error, code string) *clierr.Error {
	t.Helper()
	var ce *clierr.Error
	if !errors.As(err, &ce) || ce.Code != code {
		t.Fatalf("error = %v, want code %s", err, code)
	}
	return ce
}

func TestExplicitNodeTooOld(t *testing.T) {
	old := fakeNode(t, t.TempDir(), "v20.20.2")
	opts := Options{Dir: t.TempDir(), Getenv: envOf(map[string]string{EnvNode: old, "PATH": os.Getenv("PATH")})}
	_, err := Ensure(context.Background(), opts)
	ce := wantCode(t, err, "node_too_old")
	for _, want := range []string{EnvNode + "=" + old, "v20.20.2", ">= 24", "unset it"} {
		if !strings.Contains(ce.Message, want) {
			t.Errorf("message %q lacks %q", ce.Message, want)
		}
	}
}

func TestExplicitNodeMissing(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-node")
	tc := &Toolchain{Dir: t.TempDir()}
	err := ensureNode(context.Background(), Options{Getenv: envOf(map[string]string{EnvNode: missing})}, tc)
	ce := wantCode(t, err, "node_not_found")
	if !strings.Contains(ce.Message, missing) {
		t.Errorf("message %q does not name %s", ce.Message, missing)
	}
}

func TestNodeSelectionOrder(t *testing.T) {
	bin := t.TempDir()
	explicit := fakeNode(t, filepath.Join(bin, "explicit"), "v24.1.0")
	onPath := fakeNode(t, filepath.Join(bin, "path"), "v25.0.1")
	oldOnPath := fakeNode(t, filepath.Join(bin, "old"), "v18.0.0")

	tc := &Toolchain{Dir: t.TempDir()}
	env := map[string]string{EnvNode: explicit, "PATH": filepath.Dir(onPath)}
	if err := ensureNode(context.Background(), Options{Getenv: envOf(env)}, tc); err != nil {
		t.Fatal(err)
	}
	if tc.Node != explicit || tc.NodeVersion != "24.1.0" || tc.NodeSource != EnvNode {
		t.Errorf("with %s: got %s %s %s", EnvNode, tc.Node, tc.NodeVersion, tc.NodeSource)
	}

	tc = &Toolchain{Dir: t.TempDir()}
	env = map[string]string{"PATH": filepath.Dir(oldOnPath) + string(os.PathListSeparator) + filepath.Dir(onPath)}
	// The first node on PATH is too old: it is not searched past, the
	// toolchain's own node is provisioned instead (here: no platform to
	// provision for, so the error tells what was found).
	err := ensureNode(context.Background(), Options{Getenv: envOf(env), Platform: "plan9/386"}, tc)
	ce := wantCode(t, err, "node_not_found")
	for _, want := range []string{"v18.0.0", "plan9/386", EnvNode} {
		if !strings.Contains(ce.Message, want) {
			t.Errorf("message %q lacks %q", ce.Message, want)
		}
	}

	tc = &Toolchain{Dir: t.TempDir()}
	env = map[string]string{"PATH": filepath.Dir(onPath)}
	if err := ensureNode(context.Background(), Options{Getenv: envOf(env)}, tc); err != nil {
		t.Fatal(err)
	}
	if tc.Node != onPath || tc.NodeVersion != "25.0.1" || tc.NodeSource != "PATH" {
		t.Errorf("from PATH: got %s %s %s", tc.Node, tc.NodeVersion, tc.NodeSource)
	}
}

func TestNPMMissing(t *testing.T) {
	opts := Options{Dir: t.TempDir(), Getenv: envOf(map[string]string{"PATH": t.TempDir()})}
	_, err := Ensure(context.Background(), opts)
	ce := wantCode(t, err, "npm_not_found")
	if !strings.Contains(ce.Message, "install Node.js's npm") {
		t.Errorf("message %q does not say what to do", ce.Message)
	}
}
