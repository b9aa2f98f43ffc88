package opencode

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// reply is one message with its parts, as the synchronous route answers
// (the turn's last assistant message) and GET /session/{id}/message
// lists them.
type reply struct {
	Info  messageInfo `json:"info"`
	Parts []part      `json:"parts"`
}

// replay reports, when the synchronous route answered, what the event
// stream has not delivered of the turn yet, so that every event of the
// turn is recorded inside its invocation. OpenCode 1.18.33 writes a
// turn's events to the stream only once its event loop is free again,
// after the response (docs/harness-opencode.md, "Where a turn's time
// goes"). The stream's late copies are then dropped by the observer,
// which reports each message and part once.
//
// The response is the last assistant message. The turn's earlier ones
// (tool steps) are already reported when the stream delivered the last
// one's creation (OpenCode publishes in order); otherwise, if a tool ran
// (the plugin announces every call before it runs) or the answer does
// not answer the prompt directly, they are read from the session's
// messages. The replay runs under the event lock, so it does not
// interleave with the stream's handling (the read does not: what the
// stream delivers meanwhile is reported once all the same).
//
// The replay ends the turn for the stream: the answer is the turn's final
// state, and the stream's late copies (a text part's first update, still
// empty, among them) must not overwrite it before the outcome is read.
func (s *session) replay(ctx context.Context, e turnEnv, obs *observer, t *turn, last reply) {
	msgs := s.turnMessages(ctx, e, obs, t, last)
	s.evMu.Lock()
	defer s.evMu.Unlock()
	defer t.finish()
	for _, m := range msgs {
		info := m.Info
		p := props{Info: &info}
		obs.observe(event{Type: "message.updated"}, &p)
		t.record(event{Type: "message.updated"}, &p)
		for i := range m.Parts {
			pt := m.Parts[i]
			p := props{Part: &pt}
			obs.observe(event{Type: "message.part.updated"}, &p)
			if pt.Type == "text" || pt.Type == "reasoning" {
				obs.completeText(&pt)
			}
			t.record(event{Type: "message.part.updated"}, &p)
		}
	}
}

// turnMessages are the turn's assistant messages the replay goes
// through, oldest first, ending with last.
func (s *session) turnMessages(ctx context.Context, e turnEnv, obs *observer, t *turn, last reply) []reply {
	if obs.seen(last.Info.ID) || (!t.mayHaveSteps() && last.Info.ParentID == t.messageID) {
		return []reply{last}
	}
	all, err := recentMessages(ctx, e, t.messageID)
	if err != nil {
		s.log.Warn("read the turn's messages; the stream reports the earlier steps late", "error", err)
		return []reply{last}
	}
	var out []reply
	for _, m := range all {
		if m.Info.Role == "assistant" && m.Info.ParentID == t.messageID && m.Info.ID != last.Info.ID {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b reply) int { return strings.Compare(a.Info.ID, b.Info.ID) })
	return append(out, last)
}

// recentMessages reads the session's latest messages, back to the
// prompt's message (the turn's are the last ones: the session is idle),
// with a growing limit rather than the whole session.
func recentMessages(ctx context.Context, e turnEnv, promptID string) ([]reply, error) {
	for limit := 16; ; limit *= 4 {
		var msgs []reply
		if err := e.c.call(ctx, "GET", fmt.Sprintf("/session/%s/message?limit=%d", e.sid, limit), nil, &msgs); err != nil {
			return nil, err
		}
		if len(msgs) < limit || slices.ContainsFunc(msgs, func(m reply) bool { return m.Info.ID == promptID }) {
			return msgs, nil
		}
	}
}
