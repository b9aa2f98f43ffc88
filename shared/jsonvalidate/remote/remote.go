// Package remote validates JSON values against JSON Schemas in the
// validator process (stratos-run-validate, package serve) instead of in the
// calling process. A tool that imports it does not link the validating
// library, whose package initialization compiles the meta-schemas of every
// JSON Schema draft at each start of the process (about 10 ms of CPU,
// docs/performance.md); it pays a process start where it validates
// instead, and can start that process early (Start, Prepare) so that its
// start-up and the schema's compilation overlap work it does meanwhile.
package remote

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"

	"github.com/stratoscli/stratos/shared/jsonvalidate/verdict"
	"github.com/stratoscli/stratos/shared/sibling"
)

// Tool is the validator process's binary, found as every Stratos tool is
// (shared/sibling).
const Tool = "stratos-run-validate"

// SchemaError is a schema that does not compile; Message is the library's
// reason, as jsonvalidate.Compile words it.
type SchemaError struct{ Message string }

func (e *SchemaError) Error() string { return e.Message }

// Validator is one running validator process. Its methods may be called
// from several goroutines; requests are answered one at a time.
type Validator struct {
	mu      sync.Mutex
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	enc     *json.Encoder
	dec     *json.Decoder
	stderr  bytes.Buffer
	pending int   // replies to Prepare's requests not read yet
	broken  error // why the process can no longer answer
	closed  bool
}

// Start starts the validator process. Close ends it.
func Start() (*Validator, error) {
	bin, err := sibling.Find(Tool)
	if err != nil {
		return nil, err
	}
	v := &Validator{cmd: exec.Command(bin)}
	v.cmd.Stderr = &limitedWriter{buf: &v.stderr, max: 4096}
	if v.stdin, err = v.cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("start %s: %w", Tool, err)
	}
	stdout, err := v.cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", Tool, err)
	}
	if err := v.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", Tool, err)
	}
	v.enc, v.dec = json.NewEncoder(v.stdin), json.NewDecoder(stdout)
	return v, nil
}

// Prepare has the process compile schema now, without waiting for it: a
// later Validate with the same schema finds it compiled.
func (v *Validator) Prepare(schema json.RawMessage) {
	if notJSON(schema) != nil {
		return // Validate says so
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.send(verdict.Request{Schema: schema}) == nil {
		v.pending++
	}
}

// Validate returns value's issues against schema, nil when it matches; a
// schema that does not compile is a *SchemaError, a process that cannot
// answer another error.
func (v *Validator) Validate(schema, value json.RawMessage) ([]verdict.Issue, error) {
	// What is not JSON cannot travel in a request; it is told as
	// jsonvalidate tells it.
	if err := notJSON(schema); err != nil {
		return nil, &SchemaError{Message: "the schema is not JSON: " + err.Error()}
	}
	if err := notJSON(value); err != nil {
		return []verdict.Issue{{Path: "", Message: "not valid JSON: " + err.Error()}}, nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if err := v.send(verdict.Request{Schema: schema, Value: value}); err != nil {
		return nil, err
	}
	for ; v.pending > 0; v.pending-- {
		if _, err := v.receive(); err != nil {
			return nil, err
		}
	}
	r, err := v.receive()
	if err != nil {
		return nil, err
	}
	if r.SchemaError != "" {
		return nil, &SchemaError{Message: r.SchemaError}
	}
	return r.Issues, nil
}

func notJSON(doc json.RawMessage) error {
	if json.Valid(doc) {
		return nil
	}
	var x any
	if err := json.Unmarshal(doc, &x); err != nil {
		return err
	}
	return errors.New("not one JSON value")
}

func (v *Validator) send(req verdict.Request) error {
	if v.broken == nil {
		if err := v.enc.Encode(req); err != nil {
			v.broken = v.failure(err)
		}
	}
	return v.broken
}

func (v *Validator) receive() (verdict.Reply, error) {
	var r verdict.Reply
	if v.broken == nil {
		if err := v.dec.Decode(&r); err != nil {
			v.broken = v.failure(err)
		}
	}
	return r, v.broken
}

// failure is the error of a process that stopped answering, with what it
// said on stderr.
func (v *Validator) failure(err error) error {
	_ = v.stdin.Close()
	_ = v.cmd.Wait()
	v.closed = true
	if said := strings.TrimSpace(v.stderr.String()); said != "" {
		return fmt.Errorf("%s stopped answering: %s", Tool, said)
	}
	return fmt.Errorf("%s stopped answering: %w", Tool, err)
}

// Close ends the process: it exits when its stdin ends.
func (v *Validator) Close() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return nil
	}
	v.closed = true
	_ = v.stdin.Close()
	if err := v.cmd.Wait(); err != nil && v.broken == nil {
		return fmt.Errorf("%s: %w", Tool, err)
	}
	return nil
}

// Validate is one validation in a process of its own, for a caller that
// validates once.
func Validate(schema, value json.RawMessage) ([]verdict.Issue, error) {
	v, err := Start()
	if err != nil {
		return nil, err
	}
	issues, err := v.Validate(schema, value)
	return issues, errors.Join(err, v.Close())
}

// limitedWriter keeps the first max bytes of what the process says.
type limitedWriter struct {
	buf *bytes.Buffer
	max int
}

func (w *limitedWriter) Write(p []byte) (int, error) {
	if room := w.max - w.buf.Len(); room > 0 {
		w.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
