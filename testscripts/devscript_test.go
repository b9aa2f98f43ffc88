package testscripts

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fakeGo stands in for the Go toolchain in TestScriptsStratosSaysWhatItBuilds:
// it prints what Go prints while it fetches modules, logs its arguments,
// and writes each binary `go build -o OUT` asks for as a script that prints
// a JSON document. The real first build takes minutes with empty Go caches;
// what is tested is what scripts/stratos says around it.
const fakeGo = `#!/bin/sh
echo "go: downloading example.com/module v1.0.0" >&2
echo "go $*" >> "$FAKE_GO_LOG"
if [ "$1" = build ] && [ "$2" = -o ]; then
  printf '#!/bin/sh\necho "{\\"args\\": \\"$*\\"}"\n' > "$3"
  chmod +x "$3"
fi
`

// TestScriptsStratosSaysWhatItBuilds runs scripts/stratos in a root without
// ./bin: before Go's first line, stderr says that the first run builds
// Stratos and roughly how long that takes; stdout carries only the
// command's output. The second run builds nothing and says nothing.
func TestScriptsStratosSaysWhatItBuilds(t *testing.T) {
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, f := range []string{"scripts/stratos", "scripts/install", "scripts/lib/modules.sh"} {
		copyFile(t, filepath.Join(repo, f), filepath.Join(root, f))
	}
	for _, d := range []string{"shared", "stratos-discover", "stratos-build", "stratos-run", "stratos-agent", "stratos-temporal", "stratos-worktree", "stratos-models"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fakeBin := filepath.Join(t.TempDir(), "bin")
	if err := os.MkdirAll(fakeBin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fakeBin, "go"), []byte(fakeGo), 0o755); err != nil {
		t.Fatal(err)
	}
	goLog := filepath.Join(t.TempDir(), "go.log")
	env := append(os.Environ(), "PATH="+fakeBin+string(os.PathListSeparator)+os.Getenv("PATH"), "FAKE_GO_LOG="+goLog)

	stdout, stderr := runScript(t, root, env, "list", "--json")
	if stdout != "{\"args\": \"list --json\"}\n" {
		t.Errorf("stdout = %q, want only the command's output", stdout)
	}
	lines := strings.Split(stderr, "\n")
	firstGo := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "go: ") })
	if firstGo < 0 {
		t.Fatalf("go did not run; stderr:\n%s", stderr)
	}
	before := strings.Join(lines[:firstGo], "\n")
	for _, want := range []string{"first run: building Stratos into " + filepath.Join(root, "bin"), "downloads", "compiles", "minutes"} {
		if !strings.Contains(before, want) {
			t.Errorf("stderr before Go's first line lacks %q:\n%s", want, before)
		}
	}

	if err := os.Remove(goLog); err != nil {
		t.Fatal(err)
	}
	stdout, stderr = runScript(t, root, env, "list")
	if stdout != "{\"args\": \"list\"}\n" || stderr != "" {
		t.Errorf("second run: stdout %q, stderr %q; want the command's output and nothing else", stdout, stderr)
	}
	if _, err := os.Stat(goLog); err == nil {
		t.Errorf("the second run ran go again")
	}
}

func runScript(t *testing.T, root string, env []string, args ...string) (stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(root, "scripts", "stratos"), args...)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("scripts/stratos %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return out.String(), errb.String()
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}
