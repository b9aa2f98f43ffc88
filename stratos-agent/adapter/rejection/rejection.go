// Package rejection is how a harness adapter says that it cannot serve a
// candidate (a harness and model combination): the harness is missing, it
// has no usable credentials, or it refuses the model. The agent host's
// selector reads these errors to decide whether to try the next candidate;
// adapters never walk other harnesses themselves.
//
// A rejection unwraps to the *agentproto.Error the SDK sees, so its code
// (model_unavailable, harness_unavailable, authentication) reaches the
// workflow unchanged.
package rejection

import (
	"errors"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// Reason is why a candidate was refused. Its value is the agent error code
// the workflow sees.
type Reason string

// The reasons a candidate can be refused for.
const (
	ModelUnavailable   Reason = agentproto.CodeModelUnavailable
	HarnessUnavailable Reason = agentproto.CodeHarnessUnavailable
	Authentication     Reason = agentproto.CodeAuthentication
)

// Error is a refused candidate.
type Error struct {
	Reason Reason
	// TryNext reports whether another candidate may be tried: the refusal
	// came before the conversation produced any output or tool work, so
	// the same prompt can go elsewhere without repeating anything.
	TryNext bool
	// Err is the error the workflow sees when no candidate is left.
	Err *agentproto.Error
}

func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the agent error, so agentproto.CodeOf reads its code.
func (e *Error) Unwrap() error { return e.Err }

// New returns a rejection for reason whose agent error has the formatted
// message. TryNext is true: a rejection found before any work lets the
// selector go on; use Final for one that must not.
func New(reason Reason, format string, args ...any) *Error {
	return &Error{Reason: reason, TryNext: true, Err: agentproto.Errorf(string(reason), format, args...)}
}

// WithDetails sets the agent error's details and returns e.
func (e *Error) WithDetails(d map[string]any) *Error {
	e.Err.WithDetails(d)
	return e
}

// Wrap sets the agent error's cause and returns e.
func (e *Error) Wrap(err error) *Error {
	e.Err.Wrap(err)
	return e
}

// Final returns e marked so that no other candidate is tried (the
// conversation already did work, or the adapter knows retrying is futile).
func (e *Error) Final() *Error {
	c := *e
	c.TryNext = false
	return &c
}

// As returns the rejection in err's chain.
func As(err error) (*Error, bool) {
	var r *Error
	ok := errors.As(err, &r)
	return r, ok
}

// TryNext reports whether err is a rejection that lets the selector try
// the next candidate.
func TryNext(err error) bool {
	r, ok := As(err)
	return ok && r.TryNext
}

// Final returns err with any rejection in it marked final; other errors
// are returned unchanged.
func Final(err error) error {
	r, ok := As(err)
	if !ok || !r.TryNext {
		return err
	}
	if r == err {
		return r.Final()
	}
	return &finalized{err: err}
}

// finalized hides the TryNext of a rejection wrapped deeper in an error
// chain: As finds the final copy first.
type finalized struct{ err error }

func (f *finalized) Error() string { return f.err.Error() }
func (f *finalized) Unwrap() error { return f.err }
func (f *finalized) As(target any) bool {
	p, ok := target.(**Error)
	if !ok {
		return false
	}
	r, _ := As(f.err)
	*p = r.Final()
	return true
}
