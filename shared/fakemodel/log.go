package fakemodel

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/stratoscli/stratos/shared/atomicfile"
)

// Outcomes of a logged request.
const (
	OutcomePending     = "pending"       // still being answered
	OutcomeCompleted   = "completed"     // the whole reply was sent
	OutcomeError       = "error"         // an API error was sent (scripted or a bad request)
	OutcomeUnmatched   = "unmatched"     // no turn matched; an HTTP 400 was sent
	OutcomeClientGone  = "client_closed" // the client went away before the reply ended
	OutcomeServerClose = "server_closed" // the fake was closed before the reply ended
)

// Entry is one logged request.
type Entry struct {
	// Seq is the arrival order, from 1.
	Seq    int    `json:"seq"`
	API    string `json:"api"`
	Method string `json:"method"`
	Path   string `json:"path"`
	// Query is the raw query string (Azure's api-version travels there).
	Query string `json:"query,omitempty"`
	Facts
	// Headers are the request headers, except any that may carry a
	// credential (see loggedHeaders).
	Headers map[string]string `json:"headers"`
	// Auth says how the client authenticated ("x-api-key", "bearer" or
	// "none"); the credential itself is never logged.
	Auth string `json:"auth"`
	// Turn is the 1-based index of the script turn that answered (0: none
	// or the fallback).
	Turn     int    `json:"turn"`
	Fallback bool   `json:"fallback,omitempty"`
	Status   int    `json:"status"`
	Outcome  string `json:"outcome"`
	// Body is the request body as received.
	Body json.RawMessage `json:"body,omitempty"`
}

// Log records requests in memory and, when it has a file, rewrites that
// file as JSON Lines (one Entry per line) after every change, through a
// temporary file and a rename so readers never see half a log.
type Log struct {
	mu      sync.Mutex
	entries []Entry
	file    string
	err     error // first failure to write file
}

func newLog(file string) *Log { return &Log{file: file} }

// Entries returns a copy of the entries so far.
func (l *Log) Entries() []Entry {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Entry(nil), l.entries...)
}

// add records e with the next sequence number and returns that number.
func (l *Log) add(e Entry) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	e.Seq = len(l.entries) + 1
	l.entries = append(l.entries, e)
	l.flushLocked()
	return e.Seq
}

// finish sets the status and outcome of request seq.
func (l *Log) finish(seq, status int, outcome string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := &l.entries[seq-1]
	e.Status, e.Outcome = status, outcome
	l.flushLocked()
}

// Err returns the first error met writing the log file.
func (l *Log) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

func (l *Log) flushLocked() {
	if l.file == "" || l.err != nil {
		return
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, e := range l.entries {
		if err := enc.Encode(e); err != nil {
			l.err = fmt.Errorf("encode log entry %d: %w", e.Seq, err)
			return
		}
	}
	if err := writeFileAtomic(l.file, buf.Bytes()); err != nil {
		l.err = err
	}
}

func writeFileAtomic(path string, data []byte) error {
	// The log is rewritten after every request: readers need whole
	// versions, not ones that survive a power loss.
	if err := atomicfile.WriteFile(path, data, atomicfile.Public, atomicfile.NoSync()); err != nil {
		return fmt.Errorf("fake model log: %w", err)
	}
	return nil
}

// ReadLogFile reads a JSON Lines log written by a Fake.
func ReadLogFile(path string) ([]Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read log: %w", err)
	}
	defer f.Close()
	var out []Entry
	r := bufio.NewReader(f)
	for line := 1; ; line++ {
		b, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(b)) > 0 {
			var e Entry
			if jerr := json.Unmarshal(b, &e); jerr != nil {
				return nil, fmt.Errorf("log %s line %d: %w", path, line, jerr)
			}
			out = append(out, e)
		}
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read log %s: %w", path, err)
		}
	}
}
