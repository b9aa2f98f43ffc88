package test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/boundedread"
)

// The test harness continues a session the way a real harness does: it
// keeps the conversation (how many turns it played, and its history) in
// the state directory the host gives it, and a resumed run's session
// starts from there, so a turns script goes on at the turn after the last
// one the resumed run played and {{history}} holds the whole conversation.
//
// The state is a log, one line appended per turn: a rewrite of the whole
// state per turn (a temporary file and a rename) cost scripted runs a
// measurable share of each execute. A line cut off by a crash is ignored.

// stateFile is the session's log in its state directory.
const stateFile = "session.jsonl"

// maxState bounds the state read back: a conversation's prompts and replies.
const maxState = 64 << 20

// stateLine is one turn of the log: its number and, when the turn added
// one, its history entry.
type stateLine struct {
	Turn  int            `json:"turn"`
	Entry map[string]any `json:"entry,omitempty"`
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
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, maxState)
	for sc.Scan() {
		var l stateLine
		if json.Unmarshal(sc.Bytes(), &l) != nil {
			continue // cut off by a crash
		}
		s.turns = max(s.turns, l.Turn)
		if l.Entry != nil {
			s.history = append(s.history, l.Entry)
		}
	}
	return sc.Err()
}

// save appends the turn just played to the log (not synced: a crash of
// the machine may lose the last turns, which a resume then plays again).
func (s *session) save(historyBefore int) error {
	if s.spec.StateDir == "" {
		return nil
	}
	l := stateLine{Turn: s.turns}
	if len(s.history) > historyBefore {
		l.Entry = s.history[len(s.history)-1]
	}
	line, err := json.Marshal(l)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	if s.state == nil {
		f, err := os.OpenFile(filepath.Join(s.spec.StateDir, stateFile), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			return err
		}
		s.state = f
	}
	_, err = s.state.Write(append(line, '\n'))
	return err
}

// closeState closes the log; s.mu is held.
func (s *session) closeState() {
	if s.state != nil {
		_ = s.state.Close()
		s.state = nil
	}
}
