package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/stratoscli/stratos/shared/contract/journalapi"
)

// tailEvery is how often the journal is read for new entries. An entry the
// code's worker loses in between is a child start, an MCP call or a
// decision that runs again on the next attempt; finished agent executes
// the proxy signals itself, and each one's workflow keeps its result.
const tailEvery = 200 * time.Millisecond

// signalTimeout bounds each call that tells the run's workflow something.
const signalTimeout = 30 * time.Second

// tail passes the journal's new entries to the run's workflow as the SDK
// appends them, and appends remote agents' events to events.jsonl.
type tail struct {
	path   string
	events string
	send   func(journalapi.Entry)
	warn   io.Writer

	mu     sync.Mutex
	offset int64
	quit   chan struct{}
	done   chan struct{}
}

func startTail(path, events string, send func(journalapi.Entry), warn io.Writer) *tail {
	t := &tail{path: path, events: events, send: send, warn: warn, quit: make(chan struct{}), done: make(chan struct{})}
	go t.loop()
	return t
}

func (t *tail) loop() {
	defer close(t.done)
	tick := time.NewTicker(tailEvery)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			t.read()
		case <-t.quit:
			return
		}
	}
}

// stop passes on what the journal holds by now and stops.
func (t *tail) stop(context.Context) {
	close(t.quit)
	<-t.done
	t.read()
}

// read sends the complete lines appended since the last read. The agent
// executes among them are skipped: the proxy signalled its own entry for
// each when it finished. A replayed execute is not: the SDK answered it
// from the journal an attempt replays without asking the proxy, and the
// run's own journal needs its copy, so that a run that resumed another can
// be resumed in its turn (the run's workflow keeps one entry of a place
// that a replayed entry repeats).
func (t *tail) read() {
	t.mu.Lock()
	defer t.mu.Unlock()
	f, err := os.Open(t.path)
	if err != nil {
		return
	}
	defer f.Close()
	if _, err := f.Seek(t.offset, io.SeekStart); err != nil {
		return
	}
	data, err := io.ReadAll(io.LimitReader(f, 64<<20))
	if err != nil {
		return
	}
	end := bytes.LastIndexByte(data, '\n')
	if end < 0 {
		return
	}
	for _, line := range bytes.Split(data[:end], []byte("\n")) {
		var e journalapi.Entry
		if json.Unmarshal(line, &e) != nil || (e.Kind == journalapi.KindExecute && !e.Replayed) {
			continue
		}
		t.send(e)
	}
	t.offset += int64(end + 1)
}

// appendEvents appends remote agents' events to the run's events.jsonl,
// one write per line (the local host appends to it too).
func (t *tail) appendEvents(lines []json.RawMessage) {
	if t == nil || len(lines) == 0 {
		return
	}
	f, err := os.OpenFile(t.events, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		fmt.Fprintf(t.warn, "stratos-temporal: record a remote agent's events: %v\n", err)
		return
	}
	defer f.Close()
	for _, l := range lines {
		_, _ = f.Write(append(append([]byte{}, l...), '\n'))
	}
}
