// Package wirelog is the debug log of the JSON Stratos's processes send
// each other: with STRATOS_DEBUG_WIRE=1 in the environment, every message a
// peer reads or writes is also written to stderr, one line each, with the
// values of secret-looking fields replaced by "[redacted]". It is for
// people debugging the seams between tools (the SDK and the agent host,
// a tool and the tool it runs), as age's plugin protocol and go-plugin
// offer: seeing the wire beats guessing at it.
package wirelog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
)

// EnvVar turns the log on when set to 1.
const EnvVar = "STRATOS_DEBUG_WIRE"

// MaxShown bounds what one line shows of a message: a 60 MB prompt is not
// useful on a terminal, its first kilobytes are.
const MaxShown = 16 << 10

// Directions of a message, from the logging peer's side.
const (
	In  = "<-"
	Out = "->"
)

// Log writes messages to a writer; a nil *Log writes nothing, so callers
// hold one unconditionally.
type Log struct {
	mu  sync.Mutex
	w   io.Writer
	who string
}

// FromEnv returns a Log writing to w as who when getenv(EnvVar) is "1",
// else nil.
func FromEnv(getenv func(string) string, w io.Writer, who string) *Log {
	if getenv(EnvVar) != "1" {
		return nil
	}
	return &Log{w: w, who: who}
}

// Message logs one message read (In) or written (Out): its JSON with
// secrets redacted, cut at MaxShown bytes.
func (l *Log) Message(dir string, msg []byte) {
	if l == nil {
		return
	}
	shown := Redact(bytes.TrimSpace(msg))
	more := ""
	if len(shown) > MaxShown {
		more = fmt.Sprintf(" … (%d bytes more)", len(shown)-MaxShown)
		shown = shown[:MaxShown]
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "stratos wire: %s %s %s%s\n", l.who, dir, shown, more)
}

// Note logs one line about the exchange that is not a message of it (a
// tool call's command line, its exit status), as given: what the caller
// writes here is its to keep free of secrets. It is cut at MaxShown bytes.
func (l *Log) Note(text string) {
	if l == nil {
		return
	}
	more := ""
	if len(text) > MaxShown {
		more = fmt.Sprintf(" … (%d bytes more)", len(text)-MaxShown)
		text = text[:MaxShown]
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "stratos wire: %s %s%s\n", l.who, text, more)
}

// secretKey matches the names of fields whose values are credentials.
var secretKey = regexp.MustCompile(`(?i)(token|secret|password|passwd|authorization|api[-_]?key|cookie|credential|bearer|private[-_]?key)`)

// bearer matches a bearer credential inside a string value.
var bearer = regexp.MustCompile(`(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}`)

// Redacted replaces a secret value.
const Redacted = "[redacted]"

// Redact returns msg with the value of every field whose name looks like
// a credential replaced by Redacted, and bearer credentials inside strings
// cut out. A message of several JSON values (a stream of lines) is shown
// value by value, one per line. A message that is not JSON is described,
// not shown: it cannot be redacted field by field.
func Redact(msg []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(msg))
	dec.UseNumber()
	var out []byte
	for {
		var v any
		err := dec.Decode(&v)
		if err == io.EOF && out != nil {
			return out
		}
		if err != nil {
			return fmt.Appendf(nil, "(%d bytes that are not JSON)", len(msg))
		}
		b, err := json.Marshal(redact(v))
		if err != nil {
			return fmt.Appendf(nil, "(%d bytes that could not be shown: %v)", len(msg), err)
		}
		if out != nil {
			out = append(out, '\n')
		}
		out = append(out, b...)
	}
}

func redact(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if secretKey.MatchString(k) && !isCount(k) {
				if val != nil {
					x[k] = Redacted
				}
				continue
			}
			x[k] = redact(val)
		}
		return x
	case []any:
		for i := range x {
			x[i] = redact(x[i])
		}
		return x
	case string:
		return bearer.ReplaceAllString(x, "$1 "+Redacted)
	}
	return v
}

// isCount spares the usage figures whose names contain "token"
// (inputTokens, maxTokens) and progressToken, an id.
func isCount(key string) bool {
	k := strings.ToLower(key)
	return strings.HasSuffix(k, "tokens") || k == "progresstoken"
}
