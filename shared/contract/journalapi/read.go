package journalapi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
)

// MaxSize bounds the journal a reader loads: far beyond any real run's
// (a journal holds results, not transcripts), small enough that a damaged
// or foreign file cannot exhaust memory.
const MaxSize = 256 << 20

// Journal is a journal as read: its header and its usable entries, in
// file order.
type Journal struct {
	Header  Header
	Entries []Entry
}

// Problem is a line the reader skipped, and why.
type Problem struct {
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

func (p Problem) String() string { return fmt.Sprintf("line %d: %s", p.Line, p.Reason) }

// Errors Read returns for a journal it cannot use at all.
var (
	ErrNoHeader    = errors.New("the journal does not begin with a header")
	ErrNewer       = errors.New("the journal was written by a newer version of Stratos")
	ErrTooLarge    = errors.New("the journal is larger than the reader's limit")
	ErrUnsupported = errors.New("the journal's version is not one this version of Stratos reads")
)

// Read reads a journal. A crash can tear the last line and a damaged disk
// any line: such lines are skipped and reported as problems, as are
// entries that repeat an earlier entry's place (the first one stands) and
// headers after the first, so that Entries holds no header. A
// journal without a header, of a newer version or over MaxSize is refused.
func Read(r io.Reader) (*Journal, []Problem, error) {
	return read(r, MaxSize)
}

// read is Read with the size limit given.
func read(r io.Reader, limit int) (*Journal, []Problem, error) {
	data, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		return nil, nil, err
	}
	if len(data) > limit {
		return nil, nil, ErrTooLarge
	}
	var (
		j        Journal
		problems []Problem
		seen     = map[string]bool{}
		n        = 0
	)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), limit)
	complete := len(data) == 0 || data[len(data)-1] == '\n'
	lines := bytes.Count(data, []byte{'\n'})
	for sc.Scan() {
		n++
		line := sc.Bytes()
		if n > lines && !complete {
			problems = append(problems, Problem{n, "torn: the line was cut off while being written"})
			break
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		e, err := decode(line)
		if n == 1 || j.Header.ExecutionID == "" {
			if err := j.takeHeader(e, err); err != nil {
				return nil, problems, err
			}
			continue
		}
		if err != nil {
			problems = append(problems, Problem{n, err.Error()})
			continue
		}
		if e.Kind == KindHeader {
			problems = append(problems, Problem{n, "a second header (a journal has one, before its entries)"})
			continue
		}
		if id := e.identity(); seen[id] {
			problems = append(problems, Problem{n, "repeats the entry of an earlier line (" + id + ")"})
			continue
		} else {
			seen[id] = true
		}
		j.Entries = append(j.Entries, *e)
	}
	if err := sc.Err(); err != nil {
		return nil, problems, err
	}
	if len(data) == 0 {
		// Created, and not yet written, when its run ended.
		return nil, problems, fmt.Errorf("%w (it is empty)", ErrNoHeader)
	}
	if j.Header.ExecutionID == "" {
		return nil, problems, ErrNoHeader
	}
	return &j, problems, nil
}

// takeHeader takes the first line as the header, or says why it is not one.
func (j *Journal) takeHeader(e *Entry, err error) error {
	var newer *newerError
	switch {
	case errors.As(err, &newer):
		return fmt.Errorf("%w (version %d; this one reads %d)", ErrNewer, newer.v, Version)
	case err != nil:
		return fmt.Errorf("%w: %w", ErrNoHeader, err)
	case e.Kind != KindHeader:
		return fmt.Errorf("%w (its first line is a %q entry)", ErrNoHeader, e.Kind)
	}
	j.Header = *e.Header
	return nil
}

type newerError struct{ v int }

func (e *newerError) Error() string {
	return "version " + strconv.Itoa(e.v) + " is newer than this reader's"
}

// decode decodes and checks one line.
func decode(line []byte) (*Entry, error) {
	var probe struct {
		V *int `json:"v"`
	}
	if err := json.Unmarshal(line, &probe); err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	switch {
	case probe.V == nil:
		return nil, errors.New("no version (v)")
	case *probe.V > Version:
		return nil, &newerError{*probe.V}
	case *probe.V != Version:
		return nil, fmt.Errorf("%w: %d", ErrUnsupported, *probe.V)
	}
	var e Entry
	if err := json.Unmarshal(line, &e); err != nil {
		return nil, fmt.Errorf("not a journal entry: %v", err)
	}
	if err := Check(&e); err != nil {
		return nil, err
	}
	return &e, nil
}

var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

// Check reports whether e is a well-formed entry: a known kind with its
// own part and no other, and the fields its place needs.
func Check(e *Entry) error {
	parts := 0
	for _, set := range []bool{e.Header != nil, e.Execute != nil, e.Child != nil, e.Budget != nil, e.MCP != nil, e.Decision != nil} {
		if set {
			parts++
		}
	}
	if parts != 1 {
		return fmt.Errorf("a %q entry must hold exactly one of header, execute, child, budget, mcp and decision (it holds %d)", e.Kind, parts)
	}
	switch e.Kind {
	case KindHeader:
		return checkHeader(e)
	case KindExecute:
		return checkExecute(e)
	case KindChildStarted, KindChildCompleted:
		return checkChild(e)
	case KindMCPCall:
		return checkMCP(e)
	case KindDecision:
		return checkDecision(e)
	case KindBudget:
		if e.Budget == nil || e.Path == "" || e.Budget.Ordinal < 1 {
			return errors.New("a budget.read entry needs a path, and budget with an ordinal ≥ 1")
		}
		return nil
	}
	return fmt.Errorf("unknown kind %q", e.Kind)
}

func checkHeader(e *Entry) error {
	if e.Header == nil || e.Header.ExecutionID == "" || e.Header.Workflow == "" {
		return errors.New("a header needs header.executionId and header.workflow")
	}
	return nil
}

func checkExecute(e *Entry) error {
	x := e.Execute
	switch {
	case x == nil:
		return errors.New("an agent.execute entry needs execute")
	case e.Path == "":
		return errors.New("an agent.execute entry needs a path")
	case !sha256Hex.MatchString(e.InputSHA256):
		return errors.New("an agent.execute entry needs inputSha256 (64 hex digits)")
	case x.Agent < 1 || x.Call < 1:
		return fmt.Errorf("execute.agent and execute.call must be ≥ 1 (they are %d and %d)", x.Agent, x.Call)
	case (x.Error == nil) == (x.Text == nil && x.Value == nil):
		return errors.New("an agent.execute entry holds a result (text or value) or an error, not both or neither")
	}
	return nil
}

func checkMCP(e *Entry) error {
	m := e.MCP
	switch {
	case m == nil:
		return errors.New("an mcp.call entry needs mcp")
	case e.Path == "" || m.Server == "" || m.Tool == "" || m.K < 1:
		return errors.New("an mcp.call entry needs a path, mcp.server, mcp.tool and mcp.k ≥ 1")
	case !sha256Hex.MatchString(e.InputSHA256):
		return errors.New("an mcp.call entry needs inputSha256 (64 hex digits)")
	case (m.Error == nil) == (m.Result == nil):
		return errors.New("an mcp.call entry holds a result or an error, not both or neither")
	}
	return nil
}

func checkDecision(e *Entry) error {
	d := e.Decision
	switch {
	case d == nil:
		return errors.New("a decision.call entry needs decision")
	case e.Path == "" || d.K < 1:
		return errors.New("a decision.call entry needs a path and decision.k ≥ 1")
	case !sha256Hex.MatchString(e.InputSHA256):
		return errors.New("a decision.call entry needs inputSha256 (64 hex digits)")
	case (d.Error == nil) == (d.Result == nil):
		return errors.New("a decision.call entry holds a result or an error, not both or neither")
	case d.Result != nil && len(d.Result.Answer) == 0:
		return errors.New("a decision.call entry's result needs its answer")
	}
	return nil
}

func checkChild(e *Entry) error {
	c := e.Child
	switch {
	case c == nil:
		return fmt.Errorf("a %s entry needs child", e.Kind)
	case e.Path == "" || c.Name == "" || c.K < 1:
		return fmt.Errorf("a %s entry needs a path, child.name and child.k ≥ 1", e.Kind)
	case e.Kind == KindChildStarted && !sha256Hex.MatchString(e.InputSHA256):
		return errors.New("a child.started entry needs inputSha256 (64 hex digits)")
	case e.Kind == KindChildCompleted && c.Status == "":
		return errors.New("a child.completed entry needs child.status")
	}
	return nil
}

// Identity is the entry's place as a reader tells repeats apart: of two
// entries with one identity, the reader keeps the first.
func (e *Entry) Identity() string { return e.identity() }

// identity is an entry's place: two entries of one journal never share it.
// Its parts are quoted, so names holding the separators cannot collide.
func (e *Entry) identity() string {
	switch {
	case e.Execute != nil:
		x := e.Execute
		return fmt.Sprintf("%s %q %q %q agent %d call %d", e.Kind, e.Path, x.ConfigID, x.Label, x.Agent, x.Call)
	case e.Child != nil:
		return fmt.Sprintf("%s %q %q %d", e.Kind, e.Path, e.Child.Name, e.Child.K)
	case e.Budget != nil:
		return fmt.Sprintf("%s %q %d", e.Kind, e.Path, e.Budget.Ordinal)
	case e.MCP != nil:
		return fmt.Sprintf("%s %q %q %q %d", e.Kind, e.Path, e.MCP.Server, e.MCP.Tool, e.MCP.K)
	case e.Decision != nil:
		return fmt.Sprintf("%s %q %d", e.Kind, e.Path, e.Decision.K)
	}
	return string(e.Kind)
}
