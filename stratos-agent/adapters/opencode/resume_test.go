package opencode

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
)

// One turn with a state directory, the provider's credential given each
// way OpenCode reads one: what the state directory keeps (the run record
// keeps it) is OpenCode's database and nothing else, and no file of it
// holds the credential.
func TestTheStateDirectoryHoldsNoCredential(t *testing.T) {
	const key = "sk-stored-7f3a9c41"
	for name, give := range map[string]func(*adaptertest.Bed){
		"environment": func(b *adaptertest.Bed) { b.Env = append(b.Env, "OPENAI_API_KEY="+key) },
		"credentials list": func(b *adaptertest.Bed) {
			file := filepath.Join(b.Home, ".local", "share", "opencode", "auth.json")
			if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(`{"openai":{"type":"api","key":"`+key+`"}}`), 0o600); err != nil {
				t.Fatal(err)
			}
		},
		"OPENCODE_AUTH_CONTENT": func(b *adaptertest.Bed) {
			b.Env = append(b.Env, `OPENCODE_AUTH_CONTENT={"openai":{"type":"api","key":"`+key+`"}}`)
		},
	} {
		t.Run(name, func(t *testing.T) {
			b := openaiBed(t, adaptertest.FakeScript([]adaptertest.Turn{{Marker: "[one]", Text: "first answer"}}, opencodeTools), false)
			give(b)
			state := t.TempDir()
			a := b.Open(NewFactory(openaiOptions(b)), openaiSpec(b, func(s *adapter.Spec) { s.StateDir = state }), nil)
			if _, err := a.Execute(b.Context(), "[one] hello"); err != nil {
				t.Fatal(err)
			}
			if err := a.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			entries, err := os.ReadDir(state)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
				if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), dbFile) {
					t.Errorf("the state directory holds %s (%v), not only OpenCode's database", e.Name(), e.Type())
					continue
				}
				data, err := os.ReadFile(filepath.Join(state, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				if bytes.Contains(data, []byte(key)) {
					t.Errorf("%s in the state directory holds the credential", e.Name())
				}
			}
			if !strings.Contains(strings.Join(names, " "), dbFile) {
				t.Errorf("the state directory lacks OpenCode's database: %v", names)
			}
		})
	}
}

// OPENCODE_DB in the user's environment names their own database: the
// server never opens it (an absolute path would be used as it is).
func TestTheUsersOpenCodeDatabaseIsNeverOpened(t *testing.T) {
	b := openaiBed(t, adaptertest.FakeScript([]adaptertest.Turn{{Marker: "[one]", Text: "first answer"}}, opencodeTools), true)
	users := filepath.Join(b.Dir, "users.db")
	b.Env = append(b.Env, "OPENCODE_DB="+users)
	a := b.Open(NewFactory(openaiOptions(b)), openaiSpec(b, nil), nil)
	if _, err := a.Execute(b.Context(), "[one] hello"); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(users); err == nil {
		t.Errorf("the server created the user's database %s", users)
	}
}

// A resumed session that is not in the state directory's database (the
// state was lost) fails the agent's start, naming the session, rather than
// starting a conversation that lacks the earlier turns.
func TestAResumedSessionMissingFromTheStateIsAnInitializationError(t *testing.T) {
	b := openaiBed(t, adaptertest.FakeScript(nil, opencodeTools), true)
	state := t.TempDir()
	a, err := b.Make(NewFactory(openaiOptions(b)), openaiSpec(b, func(s *adapter.Spec) {
		s.StateDir, s.Resume = state, &adapter.Resume{SessionID: "ses_0123456789abcdefGHIJKLmnop", Calls: 1}
	}), nil)
	if err != nil {
		t.Fatal(err)
	}
	err = a.Initialize(b.Context())
	if c := agentproto.CodeOf(err); c != agentproto.CodeInitialization || !strings.Contains(err.Error(), "ses_0123456789abcdefGHIJKLmnop is not in the state directory's database "+filepath.Join(state, dbFile)) {
		t.Errorf("initialize: %v (code %s)", err, c)
	}
}

// The resumed session ID comes from the run's journal and goes into a
// route's path: anything but an OpenCode session ID is refused.
func TestAResumedSessionIDMustBeOpenCodes(t *testing.T) {
	s := newSession(Options{Log: hclog.NewNullLogger()}, adapter.Spec{Name: "coder"}, nil, nil, nil)
	for _, id := range []string{"../config", "ses_a/../../config", "ses_", "sess_abc", "ses_abc?x=1"} {
		_, err := s.continueSession(context.Background(), nil, id, "opencode.db")
		if agentproto.CodeOf(err) != agentproto.CodeInitialization || !strings.Contains(err.Error(), "not an OpenCode session ID") {
			t.Errorf("resumed session ID %q: %v", id, err)
		}
	}
}

// openaiSpec is the adapter.Spec of an agent on an openaiBed, edited by edit.
func openaiSpec(b *adaptertest.Bed, edit func(*adapter.Spec)) adapter.Spec {
	s := adapter.Spec{Name: "tester", Harness: Harness, Models: []string{"openai/gpt-4.1"}, WorkingDirectory: b.Work, WorkflowDir: b.Work}
	if edit != nil {
		edit(&s)
	}
	return s
}
