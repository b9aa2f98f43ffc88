package opencode

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
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

func (t tokens) details() map[string]any {
	return map[string]any{"inputTokens": t.Input, "outputTokens": t.Output, "reasoningOutputTokens": t.Reasoning,
		"cacheReadInputTokens": t.Cache.Read, "cacheCreationInputTokens": t.Cache.Write}
}

// subscribe opens the directory's event stream (GET /event) and returns
// once the server confirmed it (server.connected), so no event of a later
// prompt is missed; handle then receives every event, in order, on a
// goroutine of its own until ctx ends or the stream does (done is closed
// then).
func subscribe(ctx context.Context, c *client, handle func(event)) (done <-chan struct{}, err error) {
	req, err := c.request(ctx, http.MethodGet, "/event", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("GET /event: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("GET /event: HTTP %d", resp.StatusCode)
	}
	r := bufio.NewReaderSize(resp.Body, 64<<10)
	first, err := nextEvent(r)
	if err != nil || first.Type != "server.connected" {
		resp.Body.Close()
		return nil, fmt.Errorf("GET /event: no server.connected event first (%v)", err)
	}
	ch := make(chan struct{})
	go func() {
		defer close(ch)
		defer resp.Body.Close()
		for {
			ev, err := nextEvent(r)
			if err != nil {
				return
			}
			handle(ev)
		}
	}()
	return ch, nil
}

// nextEvent reads the next `data: {json}` line (OpenCode's frames have no
// other fields); lines of any length are read whole.
func nextEvent(r *bufio.Reader) (event, error) {
	for {
		line, err := r.ReadBytes('\n')
		if data, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("data:")); ok {
			var ev event
			if json.Unmarshal(bytes.TrimSpace(data), &ev) == nil && ev.Type != "" {
				return ev, nil
			}
		}
		if err != nil {
			return event{}, err
		}
	}
}
