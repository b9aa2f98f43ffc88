package admission

import (
	"context"
	"errors"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
)

func TestLimits(t *testing.T) {
	p := New(2, 3)
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		if err := p.Acquire(ctx, nil); err != nil {
			t.Fatal(err)
		}
	}
	third := make(chan error, 1)
	go func() { third <- p.Acquire(ctx, nil) }()
	waitQueued(t, p, 1)
	err := p.Acquire(ctx, nil)
	if agentproto.CodeOf(err) != agentproto.CodeAdmission {
		t.Fatalf("fourth call: got %v, want an admission error", err)
	}
	p.Release()
	if err := <-third; err != nil {
		t.Fatal(err)
	}
	if r, q := p.Stats(); r != 2 || q != 0 {
		t.Fatalf("running %d queued %d, want 2 and 0", r, q)
	}
}

func TestFIFOAndCancel(t *testing.T) {
	p := New(1, 10)
	ctx := context.Background()
	if err := p.Acquire(ctx, nil); err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancelCause(ctx)
	cause := errors.New("cancelled by test")
	first := make(chan error, 1)
	go func() { first <- p.Acquire(cctx, nil) }()
	waitQueued(t, p, 1)
	second := make(chan error, 1)
	go func() { second <- p.Acquire(ctx, nil) }()
	waitQueued(t, p, 2)
	cancel(cause)
	if err := <-first; !errors.Is(err, cause) {
		t.Fatalf("cancelled waiter: got %v", err)
	}
	p.Release()
	if err := <-second; err != nil {
		t.Fatal(err)
	}
	p.Release()
	if r, q := p.Stats(); r != 0 || q != 0 {
		t.Fatalf("running %d queued %d, want 0 and 0", r, q)
	}
}

// waitQueued spins until n calls wait; the goroutines get there quickly.
func waitQueued(t *testing.T, p *Pool, n int) {
	t.Helper()
	for i := 0; i < 1_000_000; i++ {
		if _, q := p.Stats(); q == n {
			return
		}
		// yield to the goroutine that is about to queue
		func() { ch := make(chan struct{}); go close(ch); <-ch }()
	}
	t.Fatalf("never saw %d queued calls", n)
}

// A pool made with its own rejection refuses with that error, given the
// limits and what runs and waits.
func TestNewWithRejection(t *testing.T) {
	mine := errors.New("mine")
	var got [4]int
	p := NewWith(1, 1, func(c, o, r, q int) error {
		got = [4]int{c, o, r, q}
		return mine
	})
	if err := p.Acquire(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if err := p.Acquire(context.Background(), nil); !errors.Is(err, mine) || got != [4]int{1, 1, 1, 0} {
		t.Fatalf("second call: %v with %v, want the pool's own rejection with [1 1 1 0]", err, got)
	}
}
