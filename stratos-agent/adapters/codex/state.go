package codex

import (
	"os"
	"path/filepath"

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
// is in the state directory the host copied (without it thread/resume
// fails, and no new conversation takes the old one's place). "" starts a
// new thread.
func resumedThread(spec adapter.Spec) string {
	if spec.Resume == nil {
		return ""
	}
	return spec.Resume.SessionID
}
