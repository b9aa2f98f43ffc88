package claudecode

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// FuzzFrames feeds the CLI's stdout, one line at a time, through the
// adapter's frame dispatch and event observer, with one control request of
// the host pending. It checks that a control response answers exactly the
// request it names, that every event the observer emits has a type and
// details that encode as JSON (they cross to the SDK), and that a turn's
// cost is never negative (a budget must never be credited).
func FuzzFrames(f *testing.F) {
	for _, lines := range [][]string{{
		`{"type":"system","subtype":"init","session_id":"S"}`,
		`{"type":"stream_event","api_message_id":"m1","ttft_ms":5,"event":{"type":"message_start","message":{"id":"m1","model":"x","usage":{"input_tokens":7}}}}`,
		`{"type":"stream_event","api_message_id":"m1","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}}`,
		`{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}`,
		`{"type":"stream_event","api_message_id":"m1","event":{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":3}}}`,
		`{"type":"stream_event","api_message_id":"m1","event":{"type":"message_stop"}}`,
		`{"type":"system","subtype":"task_started","task_id":"k1","tool_use_id":"t1","task_type":"local_bash","is_backgrounded":true}`,
		`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"out"}]},"tool_use_result":{"stdout":"out"}}`,
		`{"type":"system","subtype":"status","status":"compacting"}`,
		`{"type":"system","subtype":"compact_boundary","compact_metadata":{"trigger":"auto"}}`,
		`{"type":"system","subtype":"task_notification","task_id":"k1","status":"completed"}`,
		`{"type":"result","subtype":"success","result":"done","total_cost_usd":0.5,"usage":{"input_tokens":7,"output_tokens":3},"user_message_uuid":"u1"}`,
	}, {
		`{"type":"control_request","request_id":"c1","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{}}}`,
		`{"type":"control_response","response":{"subtype":"success","request_id":"req_1","response":{}}}`,
		`{"type":"control_cancel_request","request_id":"c1"}`,
		`{"type":"keep_alive"}`,
		`not json`,
		`{"type":"result","total_cost_usd":2}`,
		`{"type":"result","total_cost_usd":1}`,
	}, {
		`{"type":"user","message":{"content":"a string"}}`,
		`{"type":"assistant","message":null}`,
		`{"type":"system","subtype":"background_tasks_changed","tasks":[{"task_id":"a"}]}`,
		`{"type":"system","subtype":"api_retry","attempt":1,"max_retries":3}`,
	}} {
		f.Add(strings.Join(lines, "\n"))
	}
	f.Fuzz(func(t *testing.T, stdout string) {
		var events []adapter.Event
		o := newObserver(func(e adapter.Event) { events = append(events, e) }, "anthropic")
		var resolved []*controlResponse
		h := handlers{
			frame: func(fr *frame) {
				o.observe(fr)
				if fr.Type == "result" {
					r := &resultFrame{}
					if json.Unmarshal(fr.raw, r) == nil {
						o.turnUsage(r, "u1")
					}
				}
			},
			control: func(*process, *frame) {},
			cancel:  func(string) {},
		}
		gone := make(chan struct{})
		close(gone) // no CLI runs: nothing is looked at
		p := &process{log: hclog.NewNullLogger(), pending: map[string]chan *controlResponse{}, exited: make(chan struct{}),
			tools: newToolSessions(0, gone, hclog.NewNullLogger())}
		ch := make(chan *controlResponse, 1)
		p.pending["req_1"] = ch
		answers := 0
		for _, line := range strings.Split(stdout, "\n") {
			if line = strings.TrimSpace(line); line == "" {
				continue // the line reader hands over no blank lines
			}
			var probe struct {
				Type     string `json:"type"`
				Response *struct {
					RequestID string `json:"request_id"`
				} `json:"response"`
			}
			if line[0] == '{' && json.Unmarshal([]byte(line), &probe) == nil && probe.Type == "control_response" &&
				probe.Response != nil && probe.Response.RequestID == "req_1" {
				answers++
			}
			p.dispatch([]byte(line), h)
			select {
			case r := <-ch:
				resolved = append(resolved, r)
			default:
			}
		}
		if want := min(answers, 1); len(resolved) != want {
			t.Fatalf("the pending request got %d answers, want %d", len(resolved), want)
		}
		for _, r := range resolved {
			if r.RequestID != "req_1" {
				t.Fatalf("the pending request got the answer to %q", r.RequestID)
			}
		}
		for _, e := range events {
			if e.Type() == "" {
				t.Fatalf("event without a type: %+v", e)
			}
			if _, err := json.Marshal(e.Details); err != nil {
				t.Fatalf("%s event's details do not encode: %v", e.Type(), err)
			}
			if u, ok := e.Details.(*eventapi.Usage); ok {
				if u.CostUSD == nil || *u.CostUSD < 0 || math.IsNaN(*u.CostUSD) {
					t.Fatalf("usage event with cost %v", u.CostUSD)
				}
			}
		}
	})
}
