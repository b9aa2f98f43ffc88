package runs

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/stratoscli/stratos/stratos-run/records"
)

// DefaultPollInterval is how often Logs looks for new events and for the
// end of the run when following.
const DefaultPollInterval = 100 * time.Millisecond

// LogOptions says how to read a run's events.
type LogOptions struct {
	// Follow keeps reading until the run is no longer running.
	Follow bool
	// Poll is the interval between reads when following
	// (DefaultPollInterval if 0).
	Poll time.Duration
	// Unreadable is called, instead of emit, for each line of events.jsonl
	// that is not an event (see UnreadableLine); nil skips them silently.
	// Its error ends Logs.
	Unreadable func(UnreadableLine) error
}

// UnreadableLine is a line of events.jsonl that is not an event: not one
// JSON object in UTF-8 (a line cut short by a crash, garbage), not an
// event of the vocabulary (no type, details that do not fit their kind),
// or longer than MaxEventLine, which is skipped without being read whole.
type UnreadableLine struct {
	File   string // the events file
	Line   int    // the line's number in it, from 1
	Reason string // why it is not an event
}

// Logs calls emit with every complete line of the run's events.jsonl that
// is an event (of any vocabulary version), as it is recorded, in order; any
// other line goes to opts.Unreadable. Following, it polls the file until
// the run's status (reconciled) leaves running, then emits what remains and
// returns; ctx ends it early with ctx.Err().
func (s *Store) Logs(ctx context.Context, id string, opts LogOptions, emit func(line []byte) error) error {
	poll := opts.Poll
	if poll == 0 {
		poll = DefaultPollInterval
	}
	t := &tail{path: filepath.Join(s.Dir, id, EventsFile), max: MaxEventLine}
	defer t.close()
	visit := func(l eventLine) error {
		if _, why := l.event(); why != "" {
			if opts.Unreadable == nil {
				return nil
			}
			return opts.Unreadable(UnreadableLine{File: t.path, Line: l.n, Reason: why})
		}
		return emit(l.text)
	}
	for {
		// The status is read before the events: once it is final, every
		// event the run wrote is already in the file.
		done := !opts.Follow
		if !done {
			r, err := s.Load(id)
			if err != nil {
				return err
			}
			done = r.Status != records.StatusRunning
		}
		if err := t.drain(visit); err != nil {
			return unreadable(id, err)
		}
		if done {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(poll):
		}
	}
}

// tail reads complete lines from a file that may not exist yet and may be
// growing; a partial last line waits for its newline.
type tail struct {
	path  string
	max   int // the longest line kept
	f     *os.File
	lines *lineReader
}

// drain calls visit with every complete line not blank written since the
// last drain.
func (t *tail) drain(visit func(eventLine) error) error {
	if t.f == nil {
		f, _, err := records.OpenRegular(t.path)
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		t.f, t.lines = f, newLineReader(f, t.max)
	}
	for {
		l, err := t.lines.next()
		if err != nil {
			return ignoreEOF(err)
		}
		if l.blank() {
			continue
		}
		if err := visit(l); err != nil {
			return err
		}
	}
}

func (t *tail) close() {
	if t.f != nil {
		t.f.Close()
	}
}

func ignoreEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// Tail reads the complete lines of a file that may not exist yet and may
// be growing, as Logs does when following.
type Tail struct{ t tail }

// NewTail returns a Tail of the file at path.
func NewTail(path string) *Tail { return &Tail{t: tail{path: path, max: MaxEventLine}} }

// Drain calls emit with every complete line written since the last Drain.
// A line longer than MaxEventLine is skipped: no event is that long.
func (t *Tail) Drain(emit func(line []byte) error) error {
	return t.t.drain(func(l eventLine) error {
		if l.tooLong {
			return nil
		}
		return emit(l.text)
	})
}

// Close closes the file.
func (t *Tail) Close() { t.t.close() }
