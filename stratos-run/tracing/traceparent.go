package tracing

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
)

// SpanContext is the identity of a span as W3C trace context carries it.
type SpanContext struct {
	TraceID string `json:"traceId"` // 32 lower-case hex digits, not all zero
	SpanID  string `json:"spanId"`  // 16 lower-case hex digits, not all zero
	Sampled bool   `json:"sampled"`
}

// String is the traceparent naming sc (version 00).
func (sc SpanContext) String() string {
	flags := "00"
	if sc.Sampled {
		flags = "01"
	}
	return "00-" + sc.TraceID + "-" + sc.SpanID + "-" + flags
}

// parseTraceparent reads a W3C traceparent as the OpenTelemetry
// propagator does: version 00 has exactly four fields, a later version
// may have more (only the first four are read), version ff and all-zero
// IDs are invalid. ok is false for anything invalid, which is then
// ignored (the run starts a trace of its own).
func parseTraceparent(s string) (sc SpanContext, ok bool) {
	f := strings.Split(strings.TrimSpace(s), "-")
	if len(f) < 4 || !isHex(f[0], 2) || f[0] == "ff" || (f[0] == "00" && len(f) != 4) {
		return SpanContext{}, false
	}
	if !isHex(f[1], 32) || !isHex(f[2], 16) || !isHex(f[3], 2) || allZero(f[1]) || allZero(f[2]) {
		return SpanContext{}, false
	}
	flags, _ := hex.DecodeString(f[3])
	return SpanContext{TraceID: f[1], SpanID: f[2], Sampled: flags[0]&1 == 1}, true
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func allZero(s string) bool { return strings.Trim(s, "0") == "" }

// randomHex is n random bytes in hex, never all zero (crypto/rand.Read
// does not fail: it ends the program when the system has no randomness).
func randomHex(n int) string {
	b := make([]byte, n)
	for {
		_, _ = rand.Read(b)
		if s := hex.EncodeToString(b); !allZero(s) {
			return s
		}
	}
}
