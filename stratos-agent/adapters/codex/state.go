package codex

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// A resumed run's agent continues its Codex thread: thread/resume finds a
// thread by its rollout, the JSONL file Codex writes per thread under
// CODEX_HOME/sessions. The isolated home is removed at Close, so its
// sessions directory is a link to the run record's state directory: the
// rollouts land there and nothing else does (the home's databases, logs
// and the link to a saved login stay in the temporary home).

// rolloutsDir is the directory of CODEX_HOME where Codex keeps rollouts.
const rolloutsDir = "sessions"

// keepRollouts links home's rollout directory to one in stateDir (made
// private: rollouts hold the conversation). Without a state directory the
// rollouts stay in the home and go with it.
func keepRollouts(home, stateDir string) error {
	if stateDir == "" {
		return nil
	}
	dir := filepath.Join(stateDir, rolloutsDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return os.Symlink(dir, filepath.Join(home, rolloutsDir))
}

// resumedThread is the thread a resumed run's agent continues: its rollout
// is in the state directory the host copied. "" starts a new thread.
func resumedThread(spec adapter.Spec) string {
	if spec.Resume == nil {
		return ""
	}
	return spec.Resume.SessionID
}

// checkResumedThread fails initialization when the thread to resume has no
// rollout in the state directory (Codex names it rollout-<time>-<thread
// id>.jsonl): thread/resume would fail at the first execute, after the host
// reported the conversation continued. No new conversation takes the old
// one's place.
func checkResumedThread(spec adapter.Spec) error {
	tid := resumedThread(spec)
	if tid == "" {
		return nil
	}
	dir := filepath.Join(spec.StateDir, rolloutsDir)
	found, err := hasRollout(dir, tid)
	switch {
	case err != nil:
		return agentproto.Errorf(agentproto.CodeInitialization, "agent %q: harness codex cannot continue thread %s: %v", spec.Name, tid, err).Wrap(err)
	case !found:
		return agentproto.Errorf(agentproto.CodeInitialization, "agent %q: harness codex cannot continue thread %s: its rollout is not in %s", spec.Name, tid, dir)
	}
	return nil
}

// hasRollout reports whether dir holds the rollout of thread tid.
func hasRollout(dir, tid string) (bool, error) {
	suffix, found := "-"+tid+".jsonl", false
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && strings.HasPrefix(d.Name(), "rollout-") && strings.HasSuffix(d.Name(), suffix) {
			found = true
			return fs.SkipAll
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return found, err
}
