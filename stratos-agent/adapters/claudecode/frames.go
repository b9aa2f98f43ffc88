package claudecode

import "encoding/json"

// frame is one NDJSON line from the CLI. Only the fields the adapter reads
// are decoded; the rest stay in raw for events and diagnostics. Field order
// in the CLI's output varies, so nothing relies on it.
type frame struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	RequestID string `json:"request_id"`
	UUID      string `json:"uuid"`
	SessionID string `json:"session_id"`

	// control_request / control_response
	Request  json.RawMessage  `json:"request"`
	Response *controlResponse `json:"response"`

	// stream_event
	Event        json.RawMessage `json:"event"`
	APIMessageID string          `json:"api_message_id"`
	TTFTMs       *float64        `json:"ttft_ms"`

	// assistant / user
	Message         *message        `json:"message"`
	ParentToolUseID *string         `json:"parent_tool_use_id"`
	Error           string          `json:"error"` // assistant: model_not_found, authentication_failed, rate_limit, …
	ToolUseResult   json.RawMessage `json:"tool_use_result"`

	// system
	Status  *string          `json:"status"`
	Tasks   []backgroundTask `json:"tasks"`
	TaskID  string           `json:"task_id"`
	ToolUse string           `json:"tool_use_id"`

	raw []byte
}

type controlResponse struct {
	Subtype   string          `json:"subtype"`
	RequestID string          `json:"request_id"`
	Response  json.RawMessage `json:"response"`
	Error     string          `json:"error"`
}

type message struct {
	ID      string          `json:"id"`
	Role    string          `json:"role"`
	Model   string          `json:"model"`
	Content json.RawMessage `json:"content"`
}

// block is one content block of an assistant or user message.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// blocks decodes message content: a string is one text block.
func (m *message) blocks() []block {
	if m == nil || len(m.Content) == 0 {
		return nil
	}
	var list []block
	if json.Unmarshal(m.Content, &list) == nil {
		return list
	}
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return []block{{Type: "text", Text: s}}
	}
	return nil
}

type backgroundTask struct {
	TaskID      string `json:"task_id"`
	TaskType    string `json:"task_type"`
	Description string `json:"description"`
}

// resultFrame is the end of one CLI turn.
type resultFrame struct {
	Subtype           string          `json:"subtype"`
	IsError           bool            `json:"is_error"`
	Result            string          `json:"result"`
	StructuredOutput  json.RawMessage `json:"structured_output"`
	UserMessageUUIDs  []string        `json:"user_message_uuids"`
	UserMessageUUID   string          `json:"user_message_uuid"`
	Errors            []string        `json:"errors"`
	TerminalReason    string          `json:"terminal_reason"`
	StopReason        *string         `json:"stop_reason"`
	APIErrorStatus    *int            `json:"api_error_status"`
	APIErrorType      string          `json:"api_error_type"`
	NumTurns          int             `json:"num_turns"`
	DurationMs        float64         `json:"duration_ms"`
	DurationAPIMs     float64         `json:"duration_api_ms"`
	TotalCostUSD      float64         `json:"total_cost_usd"`
	Usage             usage           `json:"usage"`
	PermissionDenials []struct {
		ToolName  string `json:"tool_name"`
		ToolUseID string `json:"tool_use_id"`
	} `json:"permission_denials"`
}

type usage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
}

// belongsTo reports whether the result ends the prompt sent with uuid.
func (r *resultFrame) belongsTo(uuid string) bool {
	if r.UserMessageUUID == uuid {
		return true
	}
	for _, u := range r.UserMessageUUIDs {
		if u == uuid {
			return true
		}
	}
	return false
}

// streamEvent is the raw Messages API SSE event inside a stream_event frame.
type streamEvent struct {
	Type  string `json:"type"`
	Index int    `json:"index"`
	Delta struct {
		Type       string  `json:"type"`
		Text       string  `json:"text"`
		Thinking   string  `json:"thinking"`
		StopReason *string `json:"stop_reason"`
	} `json:"delta"`
	Message *struct {
		ID    string `json:"id"`
		Model string `json:"model"`
		Usage usage  `json:"usage"`
	} `json:"message"`
	ContentBlock *block `json:"content_block"`
	Usage        *usage `json:"usage"`
}
