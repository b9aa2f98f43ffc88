package test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/boundedread"
)

// The test harness continues a session the way a real harness does: it
// keeps the conversation (how many turns it played, and its history) in
// the state directory the host gives it, and a resumed run's session
// starts from there, so a turns script goes on at the turn after the last
// one the resumed run played and {{history}} holds the whole conversation.

// stateFile is the session's state in its state directory.
const stateFile = "session.json"

// maxState bounds the state read back: a conversation's prompts and replies.
const maxState = 64 << 20

// state is what stateFile holds.
type state struct {
	Turns   int              `json:"turns"`
	History []map[string]any `json:"history"`
}

// restore loads the resumed session's state, when the session resumes one.
func (s *session) restore() error {
	if s.spec.Resume == nil || s.spec.StateDir == "" {
		return nil
	}
	path := filepath.Join(s.spec.StateDir, stateFile)
	data, err := boundedread.RegularFile(path, maxState)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // the resumed session kept nothing: it starts anew
	}
	if err != nil {
		return fmt.Errorf("harness test: read the resumed session %s: %w", path, err)
	}
	var st state
	if err := json.Unmarshal(data, &st); err != nil {
		return fmt.Errorf("harness test: the resumed session %s: %w", path, err)
	}
	s.turns, s.history = st.Turns, st.History
	return nil
}

// save keeps the session's state for a later resume.
func (s *session) save() error {
	if s.spec.StateDir == "" {
		return nil
	}
	data, err := json.Marshal(state{Turns: s.turns, History: s.history})
	if err != nil {
		return err
	}
	// Not synced: a crash of the machine may lose the last turn's state (the
	// session then continues from an earlier turn); a crash of a process
	// cannot, and a sync per turn would slow every scripted run.
	return atomicfile.WriteFile(filepath.Join(s.spec.StateDir, stateFile), data, 0o600, atomicfile.NoSync())
}
