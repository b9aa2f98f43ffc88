package codex

import (
	"encoding/json"
	"strings"

	"github.com/stratoscli/stratos/stratos-agent/adapter/process"
)

// onNotification runs on the reader goroutine: events first, then what
// the running turn needs (its end, its final message, whether it did any
// work, a hook Codex failed to run).
func (s *session) onNotification(obs *observer, method string, params json.RawMessage) {
	s.log.Trace("codex notification", "method", method, "params", process.Truncate(string(params), 2000))
	var n notice
	if err := json.Unmarshal(params, &n); err != nil {
		s.log.Debug("undecodable codex notification", "method", method, "error", err)
		return
	}
	obs.observe(method, &n)
	if method == "item/completed" && n.Item != nil {
		if out, ok := outcomeOf(n.Item); ok {
			s.outcomes.record(n.Item.ID, out)
		}
	}
	s.mu.Lock()
	t, tid := s.turn, s.threadID
	s.mu.Unlock()
	if t == nil || (n.ThreadID != "" && n.ThreadID != tid) {
		return
	}
	switch method {
	case "turn/completed":
		if n.Turn != nil {
			select {
			case t.done <- *n.Turn:
			default:
			}
		}
	case "item/completed":
		if n.Item != nil && n.Item.Type == "agentMessage" {
			t.setMessage(n.Item.Text)
		}
		if n.Item != nil && n.Item.Type != "userMessage" {
			t.markWork()
		}
	case "item/started":
		if n.Item != nil && n.Item.Type != "userMessage" {
			t.markWork()
		}
	case "item/agentMessage/delta", "item/reasoning/summaryTextDelta", "item/reasoning/textDelta":
		t.markWork()
	case "hook/completed":
		s.onHookCompleted(t, n.Run)
	}
}

// onHookCompleted fails the turn when Codex reports one of Stratos's hooks
// as failed (timeout, unreachable server, bad output): Codex lets the tool
// run anyway, Stratos does not accept that.
func (s *session) onHookCompleted(t *turn, run *hookRun) {
	if run == nil || run.Status != "failed" {
		return
	}
	var msgs []string
	for _, e := range run.Entries {
		if e.Text != "" {
			msgs = append(msgs, e.Text)
		}
	}
	t.fail(nativeHookFailed(s.spec.Name, run.EventName, strings.Join(msgs, "; ")))
	t.cancel()
}
