package mcpserve

import (
	"encoding/json"
	"errors"
	"sync"

	"github.com/stratoscli/stratos/shared/jsonvalidate/remote"
	"github.com/stratoscli/stratos/shared/jsonvalidate/verdict"
)

// validator is the server's validator process (shared/jsonvalidate/remote),
// started at its first validation and kept for the server's life: mcp serve
// checks every tool call's arguments, and stratos-run, whose binary serves
// it, does not link the validating library (its start-up would delay every
// `stratos run`). A process that stopped answering is started again at the
// next validation.
type validator struct {
	mu sync.Mutex
	v  *remote.Validator
}

// validate returns value's issues against schema, nil when it matches.
func (l *validator) validate(schema, value json.RawMessage) ([]verdict.Issue, error) {
	l.mu.Lock()
	if l.v == nil {
		v, err := remote.Start()
		if err != nil {
			l.mu.Unlock()
			return nil, err
		}
		l.v = v
	}
	v := l.v
	l.mu.Unlock()
	issues, err := v.Validate(schema, value)
	var se *remote.SchemaError
	if err != nil && !errors.As(err, &se) {
		l.mu.Lock()
		if l.v == v {
			l.v = nil
		}
		l.mu.Unlock()
		_ = v.Close()
	}
	return issues, err
}

// close ends the process, if one was started.
func (l *validator) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.v != nil {
		_ = l.v.Close()
		l.v = nil
	}
}
