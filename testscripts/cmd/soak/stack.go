package main

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/stratoscli/stratos/shared/fakemodel"
)

//go:embed workflows
var workflows embed.FS

// markerVar is set in the environment of everything the soak starts; a
// run gets runVar besides, naming it alone. /proc scans find the
// processes by them (shared/proctest), whatever their parent now is.
const (
	markerVar = "STRATOS_SOAK"
	runVar    = "STRATOS_SOAK_RUN"
)

// fakeScript answers every request of every API after a short delay, so
// that a harness's turn takes about as long as a fast model's.
const fakeScript = `{"turns": [], "fallback": {"delay": "%s", "reply": [{"text": "ok"}]}}`

// stack is what the parts share: the binaries, a project holding the
// soak's workflows, a private HOME, the fake model server on 127.0.0.1 and
// the environment every run gets.
type stack struct {
	bin          string
	work         string
	project      string
	root         string // the project's discovery root
	home         string
	toolchainDir string
	marker       string
	fake         *fakemodel.Server
	env          []string
	log          io.Writer
}

// harnessVars are the variables naming the real CLIs (set by
// scripts/prepare-test-cache) and the variables the adapters read.
var harnessVars = map[string]string{
	"STRATOS_TEST_CLAUDE":   "STRATOS_CLAUDE",
	"STRATOS_TEST_CODEX":    "STRATOS_CODEX",
	"STRATOS_TEST_OPENCODE": "STRATOS_OPENCODE",
}

// passed are the variables of the soak's own environment a run keeps;
// everything else (credentials above all) is left out.
var passed = []string{"PATH", "LANG", "LC_ALL", "USER", "LOGNAME", "SHELL", "STRATOS_TOOLCHAIN_DIR", "STRATOS_NODE", "npm_config_cache"}

// newStack makes the project, the private HOME and the fake model server
// under work, and builds the workflows.
func newStack(bin, work string, cfg config, log io.Writer) (*stack, error) {
	s := &stack{bin: bin, work: work, project: filepath.Join(work, "project"), home: filepath.Join(work, "home"),
		toolchainDir: os.Getenv("STRATOS_TOOLCHAIN_DIR"), marker: markerVar + "=" + work, log: log}
	s.root = filepath.Join(s.project, ".stratos", "workflows")
	for _, d := range []string{s.home, filepath.Join(work, "tmp"), filepath.Join(work, "claude-config"), filepath.Join(s.home, ".stratos")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	if err := writeWorkflows(s.root); err != nil {
		return nil, err
	}
	if err := writeSettings(filepath.Join(s.home, ".stratos", "settings.json"), cfg.maxConcurrent()); err != nil {
		return nil, err
	}
	script, err := fakemodel.ParseScript(fmt.Appendf(nil, fakeScript, cfg.modelDelay))
	if err != nil {
		return nil, err
	}
	if s.fake, err = fakemodel.Start(script, fakemodel.Options{}); err != nil {
		return nil, err
	}
	s.env = s.environment()
	return s, nil
}

// close stops the fake model server.
func (s *stack) close() { _ = s.fake.Close() }

func (s *stack) environment() []string {
	var env []string
	for _, k := range passed {
		if v, ok := os.LookupEnv(k); ok {
			if k == "PATH" {
				v = s.bin + string(os.PathListSeparator) + v
			}
			env = append(env, k+"="+v)
		}
	}
	for from, to := range harnessVars {
		if v := os.Getenv(from); v != "" {
			env = append(env, to+"="+v)
		}
	}
	return append(env,
		"HOME="+s.home, "TMPDIR="+filepath.Join(s.work, "tmp"), "NO_COLOR=1", s.marker,
		// The fake model server is the only model any harness reaches.
		"ANTHROPIC_BASE_URL="+s.fake.URL, "ANTHROPIC_API_KEY=sk-ant-fake-000",
		"OPENAI_BASE_URL="+s.fake.URL+"/v1", "OPENAI_API_KEY=sk-fake-000",
		"CLAUDE_CONFIG_DIR="+filepath.Join(s.work, "claude-config"),
		"CLAUDE_CODE_MAX_RETRIES=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	)
}

// writeWorkflows copies the embedded workflows into root.
func writeWorkflows(root string) error {
	return fs.WalkDir(workflows, "workflows", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dest := filepath.Join(root, strings.TrimPrefix(p, "workflows"))
		if d.IsDir() {
			return os.MkdirAll(dest, 0o755)
		}
		b, err := workflows.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dest, b, 0o644)
	})
}

// settings is the part of ~/.stratos/settings.json the soak sets.
type settings struct {
	Agents struct {
		MaxConcurrent  int `json:"maxConcurrent"`
		MaxOutstanding int `json:"maxOutstanding"`
	} `json:"agents"`
}

// writeSettings lets n agent calls run at once (the default is 10), so
// that a fan-out of n agents really has n at work.
func writeSettings(path string, n int) error {
	var st settings
	st.Agents.MaxConcurrent, st.Agents.MaxOutstanding = n, max(n, 100)
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// command is `stratos args...` in the project with the soak's environment
// plus extra entries, in a process group of its own: a Ctrl-C at the
// terminal reaches it only through the soak, which stops it in order.
func (s *stack) command(extra []string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(s.bin, "stratos"), args...)
	cmd.Dir = s.project
	cmd.Env = append(append([]string{}, s.env...), extra...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

// output runs `stratos args...` to its end and returns its stdout; an
// error quotes the end of its stderr.
func (s *stack) output(args ...string) ([]byte, error) {
	cmd := s.command(nil, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.Bytes(), fmt.Errorf("stratos %s: %w: %s", strings.Join(args, " "), err, tail(stderr.String(), 2000))
	}
	return stdout.Bytes(), nil
}

// build builds every workflow of the project.
func (s *stack) build() error {
	t0 := time.Now()
	if _, err := s.output("build"); err != nil {
		return err
	}
	fmt.Fprintf(s.log, "soak: built the workflows in %s\n", time.Since(t0).Round(time.Millisecond))
	return nil
}

// records lists the run records' directories (execution IDs).
func (s *stack) records() ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(s.home, ".stratos", "runs"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			ids = append(ids, e.Name())
		}
	}
	return ids, nil
}

// live lists the entries of ~/.stratos/runs/.live: the runs that say they
// are running (.scanned is a mark, not a run).
func (s *stack) live() []string {
	entries, _ := os.ReadDir(filepath.Join(s.home, ".stratos", "runs", ".live"))
	var out []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	return out
}

// heldLocks returns the locks of the project and the private HOME that a
// process still holds.
func (s *stack) heldLocks() ([]string, error) {
	return heldLocks(lockFiles(s.root, filepath.Join(s.home, ".stratos"), s.toolchainDir))
}

func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
