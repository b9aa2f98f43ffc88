package mcpserve

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

// Ending a session cancels its runs and no other session's; a run that
// has ended is forgotten.
func TestSessionEndCancelsItsRuns(t *testing.T) {
	var r sessionRuns
	a1, cancelA1 := context.WithCancel(context.Background())
	a2, cancelA2 := context.WithCancel(context.Background())
	b, cancelB := context.WithCancel(context.Background())
	defer cancelB()
	r.add("a", cancelA1)
	forget := r.add("a", cancelA2)
	r.add("b", cancelB)
	forget()
	r.end("a")
	if a1.Err() == nil {
		t.Error("ending session a left its run going")
	}
	if a2.Err() != nil {
		t.Error("ending session a cancelled a run that had ended (forgotten)")
	}
	if b.Err() != nil {
		t.Error("ending session a cancelled session b's run")
	}
}

// A DELETE of a session cancels its runs before the SDK sees it, since
// the SDK waits for the session's calls to return.
func TestDeleteEndsTheSessionFirst(t *testing.T) {
	s := &Server{}
	run, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.sessions.add("S1", cancel)
	var cancelledFirst bool
	h := s.endingSessions(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { cancelledFirst = run.Err() != nil }))
	post := httptest.NewRequest(http.MethodPost, "/", nil)
	post.Header.Set(sessionIDHeader, "S1")
	h.ServeHTTP(httptest.NewRecorder(), post)
	if run.Err() != nil {
		t.Fatal("a POST in the session cancelled its run")
	}
	del := httptest.NewRequest(http.MethodDelete, "/", nil)
	del.Header.Set(sessionIDHeader, "S1")
	h.ServeHTTP(httptest.NewRecorder(), del)
	if !cancelledFirst {
		t.Fatal("the DELETE reached the SDK before the session's run was cancelled")
	}
}
