package fakemodel

import (
	"strings"
	"sync"
)

// turnQueue hands out a script's turns to requests, in order, each as often
// as it may be used. It is shared by every API of one Fake.
type turnQueue struct {
	mu       sync.Mutex
	turns    []Turn
	left     []int // uses left per turn; -1 = unlimited
	fallback *Turn
}

func newTurnQueue(s Script) *turnQueue {
	q := &turnQueue{turns: s.Turns, left: make([]int, len(s.Turns)), fallback: s.Fallback}
	for i, t := range s.Turns {
		switch {
		case t.Repeat:
			q.left[i] = -1
		case t.Times > 0:
			q.left[i] = t.Times
		default:
			q.left[i] = 1
		}
	}
	return q
}

// pick is the turn chosen for a request.
type pick struct {
	Turn     Turn
	Index    int  // 1-based index in Script.Turns; 0 for the fallback
	Fallback bool // answered by Script.Fallback
}

// take returns the first turn with uses left whose Match fits the request,
// else the fallback; ok is false when neither exists.
func (q *turnQueue) take(api string, f Facts) (pick, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for i, t := range q.turns {
		if q.left[i] == 0 || !t.Match.fits(api, f) {
			continue
		}
		if q.left[i] > 0 {
			q.left[i]--
		}
		return pick{Turn: t, Index: i + 1}, true
	}
	if q.fallback != nil {
		return pick{Turn: *q.fallback, Fallback: true}, true
	}
	return pick{}, false
}

// remaining returns the 1-based indexes of turns that still have a use left
// (repeating turns excluded), for reporting an unfinished script.
func (q *turnQueue) remaining() []int {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []int
	for i, n := range q.left {
		if n > 0 {
			out = append(out, i+1)
		}
	}
	return out
}

func (m Match) fits(api string, f Facts) bool {
	return (m.API == "" || m.API == api) &&
		(m.Model == "" || m.Model == f.Model) &&
		(m.Marker == "" || strings.Contains(f.Prompt, m.Marker))
}
