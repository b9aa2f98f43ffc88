package opencode

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
)

// event is one bus event of the server's stream.
type event struct {
	Type       string          `json:"type"`
	Properties json.RawMessage `json:"properties"`
}

// props is the union of the event properties the adapter reads.
type props struct {
	SessionID string       `json:"sessionID"`
	Info      *messageInfo `json:"info"`
	Part      *part        `json:"part"`
	// message.part.delta
	MessageID string `json:"messageID"`
	PartID    string `json:"partID"`
	Field     string `json:"field"`
	Delta     string `json:"delta"`
	// session.status
	Status *struct {
		Type    string `json:"type"`
		Attempt int    `json:"attempt"`
		Message string `json:"message"`
	} `json:"status"`
	// session.error
	Error *apiError `json:"error"`
	// permission.asked, question.asked
	ID         string            `json:"id"`
	Permission string            `json:"permission"`
	Questions  []json.RawMessage `json:"questions"`
}

// messageInfo is a message's info (user or assistant).
type messageInfo struct {
	ID         string          `json:"id"`
	SessionID  string          `json:"sessionID"`
	Role       string          `json:"role"`
	ParentID   string          `json:"parentID"`
	Finish     string          `json:"finish"`
	ModelID    string          `json:"modelID"`
	ProviderID string          `json:"providerID"`
	Error      *apiError       `json:"error"`
	Structured json.RawMessage `json:"structured"`
}

// apiError is an OpenCode error: a name and its data.
type apiError struct {
	Name string `json:"name"`
	Data struct {
		Message     string `json:"message"`
		StatusCode  int    `json:"statusCode"`
		IsRetryable bool   `json:"isRetryable"`
	} `json:"data"`
}

// part is one message part: text, reasoning, tool, step-start,
// step-finish, …
type part struct {
	ID        string     `json:"id"`
	SessionID string     `json:"sessionID"`
	MessageID string     `json:"messageID"`
	Type      string     `json:"type"`
	Text      string     `json:"text"`
	Tool      string     `json:"tool"`
	CallID    string     `json:"callID"`
	State     *toolState `json:"state"`
	Reason    string     `json:"reason"`
	Tokens    *tokens    `json:"tokens"`
}

type toolState struct {
	Status   string          `json:"status"`
	Input    json.RawMessage `json:"input"`
	Output   string          `json:"output"`
	Error    string          `json:"error"`
	Metadata json.RawMessage `json:"metadata"`
}

type tokens struct {
	Input     int `json:"input"`
	Output    int `json:"output"`
	Reasoning int `json:"reasoning"`
	Cache     struct {
		Read  int `json:"read"`
		Write int `json:"write"`
	} `json:"cache"`
}

func (t tokens) plus(o tokens) tokens {
	t.Input += o.Input
	t.Output += o.Output
	t.Reasoning += o.Reasoning
	t.Cache.Read += o.Cache.Read
	t.Cache.Write += o.Cache.Write
	return t
}

func (t tokens) tokens() eventapi.Tokens {
	return eventapi.Tokens{InputTokens: int64(t.Input), OutputTokens: int64(t.Output), ReasoningOutputTokens: int64(t.Reasoning),
		CacheReadInputTokens: int64(t.Cache.Read), CacheCreationInputTokens: int64(t.Cache.Write)}
}

// subscribe opens the server's event stream and returns once the server
// confirmed it (server.connected), so no event of a later prompt is
// missed; handle then receives every event, in order, on a goroutine of
// its own until ctx ends or the stream does (done is closed then).
//
// The stream is GET /global/event, not the directory's GET /event: both
// carry the same bus events in the same order, but OpenCode 1.18.33 hands
// /global/event each event as it is published while /event goes through
// a further queue and lags, by tens of milliseconds on a loaded machine
// (a turn's idle arrived 7–420 ms later, median 50 ms, in every one of 20
// turns measured side by side). The server serves only this session's
// directory, so nothing of another directory arrives; the session's
// events are picked by session ID as before.
func subscribe(ctx context.Context, c *client, handle func(event)) (done <-chan struct{}, err error) {
	req, err := c.request(ctx, http.MethodGet, eventPath, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", eventPath, err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("GET %s: HTTP %d", eventPath, resp.StatusCode)
	}
	r := bufio.NewReaderSize(resp.Body, 64<<10)
	first, err := nextEvent(r)
	if err != nil || first.Type != "server.connected" {
		resp.Body.Close()
		return nil, fmt.Errorf("GET %s: no server.connected event first (%v)", eventPath, err)
	}
	ch := make(chan struct{})
	go func() {
		defer close(ch)
		defer resp.Body.Close()
		for {
			ev, err := nextEvent(r)
			if err != nil || disposed[ev.Type] {
				return
			}
			handle(ev)
		}
	}()
	return ch, nil
}

// eventPath is the server's global event stream.
const eventPath = "/global/event"

// disposed are the events after which the server's instance (and with it
// the session) is gone: the directory's own stream ends there, so the
// global one is treated as ended too.
var disposed = map[string]bool{"server.instance.disposed": true, "global.disposed": true}

// frame is one frame of the global stream: {directory, payload: event}.
// OpenCode also sends each session change a second time as an internal
// "sync" frame, which is skipped.
type frame struct {
	Payload event `json:"payload"`
}

// nextEvent reads the next event of a `data: {json}` line (OpenCode's
// frames have no other fields); lines of any length are read whole.
func nextEvent(r *bufio.Reader) (event, error) {
	for {
		line, err := r.ReadBytes('\n')
		if data, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("data:")); ok {
			var f frame
			if json.Unmarshal(bytes.TrimSpace(data), &f) == nil && f.Payload.Type != "" && f.Payload.Type != "sync" {
				return f.Payload, nil
			}
		}
		if err != nil {
			return event{}, err
		}
	}
}
