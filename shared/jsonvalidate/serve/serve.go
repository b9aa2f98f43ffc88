// Package serve is the validator process, stratos-run-validate: it reads
// verdict.Requests from stdin, one JSON value after another, and writes a
// verdict.Reply for each to stdout, until stdin ends. It is a process of
// its own so that stratos run does not link the validating library, whose
// package initialization costs milliseconds at every start
// (docs/performance.md); a run starts it beside node, where it compiles
// the output schema while the workflow runs (package remote).
package serve

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/stratoscli/stratos/shared/jsonvalidate"
	"github.com/stratoscli/stratos/shared/jsonvalidate/verdict"
)

// Main serves requests from stdin until it ends; it exits 0 then, 1 when
// stdin is not a stream of requests or stdout cannot be written, 2 when
// it is given arguments.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 1 {
		fmt.Fprintf(stderr, "%s takes no arguments: it reads validation requests (JSON) from stdin; stratos run starts it\n", args[0])
		return 2
	}
	if err := Serve(stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "stratos-run-validate: %v\n", err)
		return 1
	}
	return 0
}

// Serve answers each request of r on w, in order, until r ends. Compiled
// schemas are kept by their text: a caller validating many values against
// one schema (mcp serve's tool arguments) compiles it once.
func Serve(r io.Reader, w io.Writer) error {
	dec := json.NewDecoder(bufio.NewReader(r))
	out := bufio.NewWriter(w)
	enc := json.NewEncoder(out)
	compiled := map[string]*jsonvalidate.Schema{}
	failed := map[string]string{}
	for {
		var req verdict.Request
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("read a request: %w", err)
		}
		if err := enc.Encode(answer(req, compiled, failed)); err != nil {
			return fmt.Errorf("write a reply: %w", err)
		}
		if err := out.Flush(); err != nil {
			return fmt.Errorf("write a reply: %w", err)
		}
	}
}

// answer is the reply to one request, compiling its schema unless it was
// compiled (or failed to) before.
func answer(req verdict.Request, compiled map[string]*jsonvalidate.Schema, failed map[string]string) verdict.Reply {
	key := string(req.Schema)
	if msg, ok := failed[key]; ok {
		return verdict.Reply{SchemaError: msg}
	}
	s, ok := compiled[key]
	if !ok {
		var err error
		if s, err = jsonvalidate.Compile(req.Schema); err != nil {
			failed[key] = err.Error()
			return verdict.Reply{SchemaError: err.Error()}
		}
		compiled[key] = s
	}
	if req.Value == nil {
		return verdict.Reply{}
	}
	return verdict.Reply{Issues: s.Validate(req.Value)}
}
