package codex

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// The state directory in the run record keeps the thread's rollout and
// nothing else: no link (to the saved login or anywhere), no credential,
// none of the home's databases; it outlives Close, the home does not.
func TestTheStateDirectoryKeepsOnlyTheThread(t *testing.T) {
	b := newBed(t, `{"turns":[{"match":{"marker":"[hello]"},"reply":[{"text":"hello back"}]}]}`)
	b.Env = withoutEnv(b.Env, "OPENAI_API_KEY")
	userHome := filepath.Join(b.Home, ".codex")
	if err := os.MkdirAll(userHome, 0o700); err != nil {
		t.Fatal(err)
	}
	login := codexCommand(t, b, userHome, "login", "--with-api-key")
	login.Stdin = strings.NewReader("sk-fake-login\n")
	if out, err := login.CombinedOutput(); err != nil {
		t.Fatalf("codex login: %v\n%s", err, out)
	}
	state := t.TempDir()
	a := b.open(nil, func(s *adapter.Spec) { s.StateDir = state })
	if _, err := a.Execute(b.Context(), "[hello] hi"); err != nil {
		t.Fatal(err)
	}
	s := a.(*session)
	home, tid := s.home, s.threadID
	if err := a.Close(b.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(home); !os.IsNotExist(err) {
		t.Errorf("the isolated home %s survived Close: %v", home, err)
	}
	var rollouts []string
	err := filepath.WalkDir(state, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == state {
			return err
		}
		rel, _ := filepath.Rel(state, path)
		switch {
		case d.IsDir():
			if info, _ := d.Info(); rel == rolloutsDir && info.Mode().Perm() != 0o700 {
				t.Errorf("%s has mode %v, want 0700", rel, info.Mode().Perm())
			}
		case !d.Type().IsRegular():
			t.Errorf("the state holds %s, not a regular file (%v)", rel, d.Type())
		case !strings.HasPrefix(rel, rolloutsDir+string(filepath.Separator)) || !strings.HasSuffix(rel, tid+".jsonl"):
			t.Errorf("the state holds %s, which is not the thread's rollout", rel)
		default:
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if strings.Contains(string(data), "sk-fake-login") {
				t.Errorf("the rollout %s holds the saved login's key", rel)
			}
			rollouts = append(rollouts, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rollouts) != 1 {
		t.Errorf("rollouts in the state: %q, want the thread's one", rollouts)
	}
}

// A resumed session appends to the rollout in its own state directory, so
// a resume of the resumed run continues from there with both exchanges.
func TestAResumedThreadGoesOnInItsOwnState(t *testing.T) {
	b := newBed(t, `{"turns":[
		{"match":{"marker":"[one]"},"reply":[{"text":"first answer"}]},
		{"match":{"marker":"[two]"},"reply":[{"text":"second answer"}]},
		{"match":{"marker":"[three]"},"reply":[{"text":"third answer"}]}]}`)
	var tid string
	prompts := []string{"[one] hello", "[two] and now", "[three] and then"}
	from := ""
	for i, prompt := range prompts {
		state := t.TempDir()
		if from != "" {
			copyDir(t, from, state)
		}
		a := b.open(nil, func(s *adapter.Spec) {
			s.StateDir = state
			if tid != "" {
				s.Resume = &adapter.Resume{SessionID: tid, Calls: i}
			}
		})
		if _, err := a.Execute(b.Context(), prompt); err != nil {
			t.Fatalf("execute %q: %v", prompt, err)
		}
		if got := a.(*session).threadID; tid != "" && got != tid {
			t.Errorf("execute %q ran on thread %s, want the resumed %s", prompt, got, tid)
		}
		tid = a.(*session).threadID
		if err := a.Close(b.Context()); err != nil {
			t.Fatal(err)
		}
		from = state
	}
	last := b.RequestsWith("[three]")
	if len(last) != 1 {
		t.Fatalf("requests for [three]: %d", len(last))
	}
	for _, want := range []string{"[one] hello", "first answer", "[two] and now", "second answer"} {
		if !strings.Contains(string(last[0].Body), want) {
			t.Errorf("the twice-resumed thread's request lacks %q", want)
		}
	}
}

// A resume whose thread is not in the state directory fails at
// initialization naming the thread, before the host reports the
// conversation continued; it never starts a new conversation in its place.
func TestAResumeWithoutTheRolloutFails(t *testing.T) {
	b := newBed(t, `{"turns":[]}`)
	const tid = "01a24bbe-ee47-7130-bd2d-9cd73d26ead2"
	a, err := b.make(nil, func(s *adapter.Spec) {
		s.StateDir, s.Resume = t.TempDir(), &adapter.Resume{SessionID: tid, Calls: 1}
	})
	if err != nil {
		t.Fatal(err)
	}
	err = a.Initialize(b.Context())
	wantCode(t, err, agentproto.CodeInitialization)
	if !strings.Contains(err.Error(), "cannot continue thread "+tid+": its rollout is not in") {
		t.Errorf("the error does not name the thread and where its rollout should be: %v", err)
	}
}

func TestHasRolloutFindsTheThreadsOwn(t *testing.T) {
	const tid = "01a24bbe-ee47-7130-bd2d-9cd73d26ead2"
	dir := t.TempDir()
	day := filepath.Join(dir, "2026", "12", "06")
	if err := os.MkdirAll(day, 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(name string) {
		if err := os.WriteFile(filepath.Join(day, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("rollout-2026-12-06T14-25-33-01a24bbe-0000-7130-bd2d-9cd73d26ead2.jsonl")
	write("notes-" + tid + ".jsonl")
	if found, err := hasRollout(dir, tid); err != nil || found {
		t.Errorf("another thread's rollout or another file: found %v, %v", found, err)
	}
	write("rollout-2026-12-06T14-25-33-" + tid + ".jsonl")
	if found, err := hasRollout(dir, tid); err != nil || !found {
		t.Errorf("the thread's rollout: found %v, %v", found, err)
	}
	if found, err := hasRollout(filepath.Join(dir, "missing"), tid); err != nil || found {
		t.Errorf("a missing directory: found %v, %v", found, err)
	}
}

// copyDir copies the directories and regular files under from into to, as
// the agent host copies a resumed session's state.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		target := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o700)
		case d.Type().IsRegular():
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(target, data, 0o600)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
