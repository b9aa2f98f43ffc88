package runs

import (
	"bufio"
	"bytes"
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
}

// Logs calls emit with every complete line of the run's events.jsonl, in
// order. Following, it polls the file until the run's status (reconciled)
// leaves running, then emits what remains and returns; ctx ends it early
// with ctx.Err().
func (s *Store) Logs(ctx context.Context, id string, opts LogOptions, emit func(line []byte) error) error {
	poll := opts.Poll
	if poll == 0 {
		poll = DefaultPollInterval
	}
	t := &tail{path: filepath.Join(s.Dir, id, EventsFile)}
	defer t.close()
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
		if err := t.drain(emit); err != nil {
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
	path    string
	f       *os.File
	r       *bufio.Reader
	partial []byte
}

func (t *tail) drain(emit func([]byte) error) error {
	if t.f == nil {
		f, err := os.Open(t.path)
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		t.f, t.r = f, bufio.NewReaderSize(f, 64<<10)
	}
	for {
		chunk, err := t.r.ReadBytes('\n')
		t.partial = append(t.partial, chunk...)
		if err != nil {
			return ignoreEOF(err)
		}
		line := bytes.TrimRight(t.partial, "\r\n")
		t.partial = t.partial[:0]
		if len(line) == 0 {
			continue
		}
		if err := emit(line); err != nil {
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
func NewTail(path string) *Tail { return &Tail{t: tail{path: path}} }

// Drain calls emit with every complete line written since the last Drain.
func (t *Tail) Drain(emit func(line []byte) error) error { return t.t.drain(emit) }

// Close closes the file.
func (t *Tail) Close() { t.t.close() }
