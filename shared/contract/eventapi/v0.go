package eventapi

import "encoding/json"

// mapV0 rewrites the details of a version 0 line (written before the
// vocabulary had versions) into the current shapes. Version 0 spelled an
// error as a string (with its code beside it as errorCode), left a
// harness-reported cost without its provenance, called Codex's error kind
// codexErrorInfo, and wrote the test harness's text deltas without a
// kind and its failed tool calls without isError; fields it wrote that
// the vocabulary dropped (Codex's totalTokens) are ignored by the lenient
// read. Details that are not an object are returned unchanged, for the
// decoder to refuse.
func mapV0(typ string, raw json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil || m == nil {
		return raw
	}
	switch typ {
	case TypeToolCompleted:
		errorObject(m)
		if _, ok := m["isError"]; !ok && string(m["status"]) == `"failed"` {
			m["isError"] = json.RawMessage("true")
		}
	case TypeAgentInitializationCompleted, TypeAgentInvocationCompleted, TypeAgentClosed,
		TypeModelUnavailable, TypeWorktreeReconciled, TypeWorktreeReleased:
		errorObject(m)
	case TypeUsage:
		if _, ok := m["costUsd"]; ok {
			if _, ok := m["costProvenance"]; !ok {
				m["costProvenance"] = json.RawMessage(`"` + CostReported + `"`)
			}
		}
	case TypeModelRetry:
		rename(m, "codexErrorInfo", "errorKind")
	case TypeMessageDelta:
		if _, ok := m["kind"]; !ok {
			m["kind"] = json.RawMessage(`"` + DeltaText + `"`)
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return b
}

// errorObject turns "error": "text" (and "errorCode": "code") into
// "error": {"code", "message"}.
func errorObject(m map[string]json.RawMessage) {
	var msg, code string
	hasMsg := json.Unmarshal(m["error"], &msg) == nil && m["error"] != nil
	hasCode := json.Unmarshal(m["errorCode"], &code) == nil && m["errorCode"] != nil
	if !hasMsg && !hasCode {
		return
	}
	delete(m, "errorCode")
	b, _ := json.Marshal(Error{Code: code, Message: msg})
	m["error"] = b
}

func rename(m map[string]json.RawMessage, from, to string) {
	if v, ok := m[from]; ok {
		delete(m, from)
		if _, taken := m[to]; !taken {
			m[to] = v
		}
	}
}
