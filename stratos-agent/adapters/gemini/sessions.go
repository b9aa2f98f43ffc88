package gemini

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Gemini CLI 0.61 records a session in
// <home>/.gemini/tmp/<project>/chats/session-<minute>-<first 8 of its ID>.jsonl,
// <minute> being when the recording started (2026-12-07T03-40). Its
// session/load starts a new recording for the loaded ID before it reads
// the old one, under a name made from the current minute: a resume in the
// same minute as the session began overwrites the conversation with an
// empty one, and the load finds "No previous sessions". keptSessionStamp
// is the minute the launch of a resumed session renames that session's
// recording to, a name no new recording takes; the CLI reads a session's
// times from the file, not from its name.
const keptSessionStamp = "1970-01-01T00-00"

// keepResumedSession renames the recordings of session id under home's
// chats directories to keptSessionStamp's name, unless one already has it
// (a session resumed before: the others are the empty recordings later
// loads started).
func keepResumedSession(home, id string) error {
	if len(id) < 8 {
		return nil
	}
	short := id[:8]
	dirs, err := filepath.Glob(filepath.Join(home, ".gemini", "tmp", "*", "chats"))
	if err != nil {
		return err
	}
	for _, dir := range dirs {
		kept := filepath.Join(dir, "session-"+keptSessionStamp+"-"+short+".jsonl")
		if _, err := os.Stat(kept); err == nil {
			continue
		}
		recorded, err := filepath.Glob(filepath.Join(dir, "session-*-"+short+".jsonl"))
		if err != nil {
			return err
		}
		if len(recorded) == 0 {
			continue
		}
		// The newest name holds the conversation: an older one of the same
		// session can only be an earlier, replaced recording.
		newest := recorded[len(recorded)-1]
		if err := os.Rename(newest, kept); err != nil {
			return fmt.Errorf("keep the recorded session %s: %w", strings.TrimPrefix(newest, home+string(filepath.Separator)), err)
		}
	}
	return nil
}
