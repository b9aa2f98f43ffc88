package proxy

import (
	"context"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/contract/journalapi"
	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// sent records the Records a recorder sends; the first send waits until
// release is closed.
type sent struct {
	mu      sync.Mutex
	records []engine.Record
	first   chan struct{} // closed when the first send began
	release chan struct{}
}

func newSent() *sent { return &sent{first: make(chan struct{}), release: make(chan struct{})} }

func (s *sent) send(_ context.Context, rec engine.Record) error {
	s.mu.Lock()
	n := len(s.records)
	s.records = append(s.records, rec)
	s.mu.Unlock()
	if n == 0 {
		close(s.first)
		<-s.release
	}
	return nil
}

// What accumulates while a signal is being sent goes to the run's workflow
// in one signal, not one each: starts, journal entries and ends together,
// the entries in the order the code wrote them.
func TestARecordCarriesWhatAccumulatedMeanwhile(t *testing.T) {
	s := newSent()
	r := startRecorder(s.send, io.Discard, 0)
	r.started(engine.ExecuteStarted{ID: "e1"})
	<-s.first
	r.started(engine.ExecuteStarted{ID: "e2"})
	r.journal(journalapi.Entry{Kind: journalapi.KindChildStarted, Path: "a"})
	r.finished(engine.ExecuteFinished{ID: "e1"})
	r.journal(journalapi.Entry{Kind: journalapi.KindChildStarted, Path: "b"})
	r.started(engine.ExecuteStarted{ID: "e3"})
	close(s.release)
	r.close()
	if len(s.records) != 2 {
		t.Fatalf("sent %d signals (%+v), want 2: the first start, then the rest in one", len(s.records), s.records)
	}
	second := s.records[1]
	if len(second.Started) != 2 || second.Started[0].ID != "e2" || second.Started[1].ID != "e3" ||
		len(second.Journal) != 2 || second.Journal[0].Path != "a" || second.Journal[1].Path != "b" ||
		len(second.Finished) != 1 || second.Finished[0].ID != "e1" {
		t.Errorf("second signal = %+v, want starts e2 e3, entries a b, end e1", second)
	}
}

// Closing sends what is pending; what would take a signal past a
// payload's size goes in the next one.
func TestARecordFitsAPayload(t *testing.T) {
	s := newSent()
	r := startRecorder(s.send, io.Discard, 0)
	r.started(engine.ExecuteStarted{ID: "e1"})
	<-s.first
	big := strings.Repeat("x", maxRecordBytes/2+1)
	for _, p := range []string{big, big, "c"} {
		r.journal(journalapi.Entry{Kind: journalapi.KindChildStarted, Path: p})
	}
	close(s.release)
	r.close()
	var counts []int
	for _, rec := range s.records[1:] {
		counts = append(counts, len(rec.Journal))
	}
	if !slices.Equal(counts, []int{1, 2}) {
		t.Errorf("entries per signal after the first: %v, want [1 2] (the two large ones apart, the small one with the second)", counts)
	}
}

// What the code's host has to tell within the linger goes in one signal
// (an execute's end and the next one's start); closing sends it at once.
func TestARecordWaitsForWhatFollows(t *testing.T) {
	s := newSent()
	close(s.release)
	r := startRecorder(s.send, io.Discard, time.Hour)
	r.finished(engine.ExecuteFinished{ID: "e1"})
	r.started(engine.ExecuteStarted{ID: "e2"})
	closed := make(chan struct{})
	go func() { r.close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(time.Minute):
		t.Fatal("close waited for the linger")
	}
	if len(s.records) != 1 || len(s.records[0].Finished) != 1 || len(s.records[0].Started) != 1 {
		t.Errorf("sent %+v, want one signal with e1's end and e2's start", s.records)
	}
}
