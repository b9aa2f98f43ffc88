package fakemodel

import (
	"strings"
	"testing"
	"time"
)

func TestParseScriptReadsEveryField(t *testing.T) {
	s, err := ParseScript([]byte(`{
	  "countTokens": 42,
	  "turns": [
	    {"match": {"api": "anthropic", "model": "m", "marker": "[x]"}, "times": 2,
	     "delay": "1.5s", "chunkDelay": "10ms", "stopReason": "max_tokens",
	     "usage": {"inputTokens": 1, "outputTokens": 2, "cacheCreationInputTokens": 3, "cacheReadInputTokens": 4},
	     "reply": [{"text": "hi"}, {"thinking": "hmm", "signature": "s"},
	               {"toolUse": {"id": "toolu_1", "name": "Bash", "input": {"command": "echo hi"}}},
	               {"structuredOutput": {"name": "Ada"}}]},
	    {"repeat": true, "error": {"kind": "rate_limit", "retryAfter": 7, "headers": {"x-should-retry": "true"}}}
	  ],
	  "fallback": {"reply": [{"text": "side"}]}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	t0 := s.Turns[0]
	if s.CountTokens != 42 || t0.Times != 2 || t0.Delay.Duration != 1500*time.Millisecond ||
		t0.ChunkDelay.Duration != 10*time.Millisecond || t0.Match.Marker != "[x]" || len(t0.Reply) != 4 ||
		t0.Usage.CacheReadInputTokens != 4 || t0.Reply[2].ToolUse.Name != "Bash" {
		t.Errorf("turn 0 = %+v", t0)
	}
	if !s.Turns[1].Repeat || s.Turns[1].Error.RetryAfter != 7 || s.Fallback == nil {
		t.Errorf("script = %+v", s)
	}
}

func TestParseScriptErrorsNameTheProblem(t *testing.T) {
	cases := map[string]string{
		`{"turns":[{"reply":[{"txt":"x"}]}]}`: `unknown field "txt"`,
		`{"turns":[{}]}`:                      "turns[0]: needs exactly one of reply and error",
		`{"turns":[{"reply":[{"text":"a"}],"error":{"kind":"overloaded"}}]}`:                             "turns[0]: needs exactly one of reply and error",
		`{"turns":[{"reply":[{"text":"a","thinking":"b"}]}]}`:                                            "turns[0]: reply[0]: needs exactly one of",
		`{"turns":[{"reply":[{}]}]}`:                                                                     "reply[0]: needs exactly one of",
		`{"turns":[{"reply":[{"toolUse":{"input":{}}}]}]}`:                                               "toolUse.name is empty",
		`{"turns":[{"reply":[{"toolUse":{"name":"X","input":[1]}}]}]}`:                                   "toolUse.input must be a JSON object",
		`{"turns":[{"reply":[{"structuredOutput":"x"}]}]}`:                                               "structuredOutput must be a JSON object",
		`{"turns":[{"reply":[{"text":"a","signature":"s"}]}]}`:                                           "signature belongs to a thinking block",
		`{"turns":[{"delay":"soon","reply":[{"text":"a"}]}]}`:                                            `invalid duration "soon"`,
		`{"turns":[{"delay":5,"reply":[{"text":"a"}]}]}`:                                                 "duration must be a string",
		`{"turns":[{"delay":"-1s","reply":[{"text":"a"}]}]}`:                                             "is negative",
		`{"turns":[{"times":2,"repeat":true,"reply":[{"text":"a"}]}]}`:                                   "times and repeat are exclusive",
		`{"turns":[{"match":{"api":"openai"},"reply":[{"text":"a"}]}]}`:                                  `match.api: unknown API "openai"`,
		`{"turns":[{"error":{"kind":"teapot"}}]}`:                                                        `kind: unknown "teapot"`,
		`{"turns":[{"error":{"status":404}}]}`:                                                           "status and type are required",
		`{"turns":[{"error":{"status":200,"type":"x"}}]}`:                                                "status 200 is not an HTTP error status",
		`{"fallback":{"error":{"kind":"nope"}}}`:                                                         "fallback: error: kind",
		`{"turns":[]} {}`:                                                                                "trailing data",
		`{"countTokens":-1}`:                                                                             "countTokens: -1 is negative",
		`{"turns":[{"reply":[{"text":"a"}]},{"reply":[{"thinking":"b","signature":"s"}]},{"reply":[]}]}`: "turns[2]:",
	}
	for in, want := range cases {
		_, err := ParseScript([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseScript(%s) = %v, want error containing %q", in, err, want)
		}
	}
}

func TestLoadScriptNamesTheFile(t *testing.T) {
	_, err := LoadScript("testdata/does-not-exist.json")
	if err == nil || !strings.Contains(err.Error(), "does-not-exist.json") {
		t.Errorf("err = %v", err)
	}
}

func TestErrorKindsFillTheRealAPIsValues(t *testing.T) {
	cases := []struct {
		e      ErrorReply
		status int
		typ    string
		msg    string
		retry  int
	}{
		{ErrorReply{Kind: "not_found"}, 404, "not_found_error", "model: claude-x", 0},
		{ErrorReply{Kind: "overloaded"}, 529, "overloaded_error", "Overloaded", 0},
		{ErrorReply{Kind: "rate_limit"}, 429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit", 1},
		{ErrorReply{Kind: "rate_limit", RetryAfter: 30, Message: "slow down"}, 429, "rate_limit_error", "slow down", 30},
		{ErrorReply{Kind: "authentication"}, 401, "authentication_error", "invalid x-api-key", 0},
		{ErrorReply{Kind: "invalid_request", Message: "prompt is too long"}, 400, "invalid_request_error", "prompt is too long", 0},
		{ErrorReply{Kind: "api_error"}, 500, "api_error", "Internal server error", 0},
		{ErrorReply{Status: 418, Type: "teapot_error"}, 418, "teapot_error", "", 0},
	}
	for _, c := range cases {
		t.Run(c.e.Kind+c.e.Type, func(t *testing.T) {
			r, err := c.e.resolve("claude-x")
			if err != nil {
				t.Errorf("%+v: %v", c.e, err)
				return
			}
			if r.Status != c.status || r.Type != c.typ || r.Message != c.msg || r.RetryAfter != c.retry {
				t.Errorf("%+v resolved to %+v", c.e, r)
			}
		})
	}
}
