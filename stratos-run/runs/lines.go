package runs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"unicode/utf8"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// MaxEventLine bounds one line of events.jsonl that a reader holds in
// memory. The agent host and the runtime write one event per line, far
// below it (a tool's output is cut by the harness long before); a longer
// line is damaged, and is skipped without being read whole.
const MaxEventLine = 16 << 20

// EachEvent calls visit with every event of the events file at path, in
// order, read through the vocabulary (lines of any version). Lines that are
// not events are left out: blank ones, damaged ones (see eventLine.event),
// and a last line without its newline (torn by a kill); a line longer than
// MaxEventLine is read past, never held whole. A missing file has no
// lines.
func EachEvent(path string, visit func(eventapi.Event)) error {
	f, _, err := records.OpenRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	lr := newLineReader(f, MaxEventLine)
	for {
		l, err := lr.next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
		if l.blank() {
			continue
		}
		if e, why := l.event(); why == "" {
			visit(e)
		}
	}
}

// eventLine is one complete line of events.jsonl.
type eventLine struct {
	n       int    // its number in the file, from 1
	text    []byte // without its newline; empty when tooLong
	size    int64  // its length, newline excluded
	tooLong bool   // longer than the reader's limit: read past, not kept
}

// lineReader reads the complete lines of a file that may still be growing
// (a last line without its newline waits for it across reads) and holds at
// most max bytes of a line: the rest of a longer line is read past, not
// kept.
type lineReader struct {
	r    *bufio.Reader
	max  int
	n    int    // complete lines read
	line []byte // the line being read
	long int64  // > 0: the line being read is longer than max, and this long so far
	done bool   // line was returned: clear it before reading on
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next complete line; its text is valid until the next
// call. io.EOF (or the read's error) when no complete line is left yet.
func (lr *lineReader) next() (eventLine, error) {
	if lr.done {
		lr.done = false
		lr.line = lr.line[:0]
		if cap(lr.line) > 1<<20 {
			lr.line = nil // a long line's buffer is not kept for every short one after it
		}
	}
	for {
		chunk, err := lr.r.ReadSlice('\n')
		lr.take(chunk)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			return eventLine{}, err
		}
		lr.n++
		if lr.long > 0 {
			l := eventLine{n: lr.n, size: lr.long - 1, tooLong: true}
			lr.long = 0
			return l, nil
		}
		lr.done = true
		text := bytes.TrimRight(lr.line, "\r\n")
		return eventLine{n: lr.n, text: text, size: int64(len(text))}, nil
	}
}

// take adds a chunk of the line being read.
func (lr *lineReader) take(chunk []byte) {
	if lr.long > 0 {
		lr.long += int64(len(chunk))
		return
	}
	n := len(lr.line) + len(chunk)
	if bytes.HasSuffix(chunk, []byte("\n")) {
		n--
	}
	if n > lr.max {
		lr.long, lr.line = int64(len(lr.line)+len(chunk)), nil
		return
	}
	lr.line = append(lr.line, chunk...)
}

// event reads the line as an event of the vocabulary, or says why it is
// not one: damaged (see damage), or a JSON object that is not an event (no
// type, or details that do not fit their kind).
func (l eventLine) event() (eventapi.Event, string) {
	if why := l.damage(); why != "" {
		return eventapi.Event{}, why
	}
	e, err := eventapi.Decode(l.text)
	if err != nil {
		return eventapi.Event{}, "not an event: " + err.Error()
	}
	return e, ""
}

// damage says why a line of events.jsonl cannot be an event — not UTF-8,
// not one JSON object, or too long to be read — or "" when it can.
func (l eventLine) damage() string {
	switch {
	case l.tooLong:
		return fmt.Sprintf("longer than %d bytes (%d)", MaxEventLine, l.size)
	case !utf8.Valid(l.text):
		return "not UTF-8"
	case !json.Valid(l.text):
		var v any
		return fmt.Sprintf("not a JSON object: %v", json.Unmarshal(l.text, &v))
	case bytes.TrimLeft(l.text, " \t\r")[0] != '{': // json.Valid: something is left
		return "not a JSON object"
	}
	return ""
}

// blank reports whether the line holds nothing but white space: not an
// event, and not damage either.
func (l eventLine) blank() bool { return !l.tooLong && len(bytes.TrimSpace(l.text)) == 0 }
