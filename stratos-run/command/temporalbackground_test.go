package command

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/contract/temporalapi"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// slowTemporal answers Describe only once release is closed, counting the
// questions.
type slowTemporal struct {
	release chan struct{}
	asked   atomic.Int32
}

func (s *slowTemporal) Describe(ctx context.Context, run records.TemporalRun) (temporalapi.RunState, error) {
	s.asked.Add(1)
	select {
	case <-s.release:
		return temporalapi.RunState{WorkflowID: run.WorkflowID, Status: "succeeded"}, nil
	case <-ctx.Done():
		return temporalapi.RunState{}, ctx.Err()
	}
}

func (s *slowTemporal) Cancel(ctx context.Context, run records.TemporalRun) (temporalapi.RunState, error) {
	return s.Describe(ctx, run)
}

// The web server's questions never wait on Temporal: the first answer is
// "not yet" while one question goes out in the background, and once it is
// answered, that answer.
func TestBackgroundTemporalNeverWaits(t *testing.T) {
	slow := &slowTemporal{release: make(chan struct{})}
	b := newBackgroundTemporal(context.Background(), slow, time.Hour)
	run := records.TemporalRun{WorkflowID: "stratos-x"}
	for range 3 {
		if _, err := b.Describe(context.Background(), run); !errors.Is(err, errNotAnsweredYet) {
			t.Fatalf("before Temporal answered: %v, want errNotAnsweredYet", err)
		}
	}
	close(slow.release)
	b.wait()
	st, err := b.Describe(context.Background(), run)
	if err != nil || st.Status != "succeeded" {
		t.Fatalf("after the answer: %+v, %v", st, err)
	}
	if n := slow.asked.Load(); n != 1 {
		t.Fatalf("Temporal was asked %d times, want once (one question at a time, an answer reused)", n)
	}
}

// The questions under way end with the server.
func TestBackgroundTemporalStopsWithTheServer(t *testing.T) {
	slow := &slowTemporal{release: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	b := newBackgroundTemporal(ctx, slow, time.Hour)
	_, _ = b.Describe(context.Background(), records.TemporalRun{WorkflowID: "stratos-x"})
	cancel()
	b.wait()
}
