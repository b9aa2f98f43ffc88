package testscripts

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/stratoscli/stratos/shared/version"
	"github.com/stratoscli/stratos/testscripts/internal/modproxy"
)

// TestGoInstall proves the README's `go install …@latest` works for every
// command once the modules are tagged: it serves the working tree's modules
// from a file-based module proxy at the version they require of each other
// and installs each command from it outside the workspace, as a user would.
// Third-party modules come from the machine's module cache, else from the
// configured GOPROXY; our modules go into a module cache of the test's own,
// and -trimpath keeps the build cache valid across runs despite that cache's
// changing path.
func TestGoInstall(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not on PATH: install Go to run this test: %v", err)
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	mods := publishedModules(t, repo)
	want := "v" + version.Version
	if v, err := modproxy.RequiredVersion(repo, mods); err != nil || v != want {
		t.Fatalf("the modules require each other at %q (%v); want %s, the version in shared/version", v, err, want)
	}
	work := t.TempDir()
	if err := modproxy.Build(filepath.Join(work, "proxy"), repo, want, mods); err != nil {
		t.Fatal(err)
	}
	env := installEnv(t, goBin, work)
	for _, m := range mods {
		cmds := commandsOf(t, repo, m)
		args := []string{"install"}
		for _, c := range cmds {
			args = append(args, m.Path+"/cmd/"+c+"@latest")
		}
		start := time.Now()
		runIn(t, work, env, goBin, args...)
		t.Logf("go install %s: %s", strings.Join(cmds, " "), time.Since(start).Round(time.Millisecond))
	}

	bin := filepath.Join(work, "bin")
	if got := runIn(t, work, env, filepath.Join(bin, "stratos"), "--version"); got != "stratos version "+version.Version+"\n" {
		t.Errorf("stratos --version = %q", got)
	}
	// The dispatcher finds the tools installed beside it.
	if got := runIn(t, work, env, filepath.Join(bin, "stratos"), "list", "--json"); !strings.Contains(got, `"workflows"`) {
		t.Errorf("stratos list --json = %q", got)
	}
}

// publishedModules returns the workspace's modules but this one.
func publishedModules(t *testing.T, repo string) []modproxy.Module {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repo, "go.work"))
	if err != nil {
		t.Fatal(err)
	}
	wf, err := modfile.ParseWork("go.work", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, u := range wf.Use {
		if d := filepath.Clean(u.Path); d != "testscripts" {
			dirs = append(dirs, d)
		}
	}
	mods, err := modproxy.Modules(repo, dirs)
	if err != nil {
		t.Fatal(err)
	}
	return mods
}

// commandsOf lists the commands of module m: its cmd/<name> directories.
func commandsOf(t *testing.T, repo string, m modproxy.Module) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(repo, m.Dir, "cmd"))
	if err != nil {
		t.Fatalf("module %s has no cmd directory: %v", m.Path, err)
	}
	var cmds []string
	for _, e := range entries {
		if e.IsDir() {
			cmds = append(cmds, e.Name())
		}
	}
	if len(cmds) == 0 {
		t.Fatalf("module %s has no commands under cmd/", m.Path)
	}
	return cmds
}

// installEnv is the environment of a user's `go install` outside any
// workspace, with the test's proxy first in GOPROXY.
func installEnv(t *testing.T, goBin, work string) []string {
	t.Helper()
	goEnv := func(name string) string {
		out, err := exec.Command(goBin, "env", name).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", name, err)
		}
		return strings.TrimSpace(string(out))
	}
	proxies := []string{"file://" + filepath.ToSlash(filepath.Join(work, "proxy"))}
	if cache := goEnv("GOMODCACHE"); cache != "" {
		proxies = append(proxies, "file://"+filepath.ToSlash(filepath.Join(cache, "cache", "download")))
	}
	proxies = append(proxies, goEnv("GOPROXY"))
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "GOWORK=") || strings.HasPrefix(kv, "GOFLAGS=")
	})
	return append(env,
		"GOWORK=off",
		"GOFLAGS=-mod=mod -modcacherw -trimpath",
		"GOTOOLCHAIN=local",
		"GOMODCACHE="+filepath.Join(work, "modcache"),
		"GOBIN="+filepath.Join(work, "bin"),
		"GOPROXY="+strings.Join(proxies, ","),
		"GONOSUMDB=github.com/stratoscli/stratos",
		// HOME is the test's (stratos reads ~/.stratos), the build cache the
		// user's: compiled packages are reused across runs.
		"HOME="+work,
		"GOCACHE="+goEnv("GOCACHE"),
	)
}

func runIn(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}
