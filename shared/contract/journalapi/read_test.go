package journalapi

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// testdata/failed-run.jsonl is the journal of a real run that did all its
// agent work (a planner, three reviewers of two calls each, a child with
// one agent, a budget reading) and then failed; testdata/resumed-run.jsonl
// the journal of the execution that resumed it and replayed every call.
// Both were written by the runtime in runs/resume.txtar.

// journalLines returns the lines of a testdata journal, without newlines.
func journalLines(t testing.TB, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// journalOf is lines as a journal file: each line and its newline.
func journalOf(lines ...string) string {
	return strings.Join(lines, "\n") + "\n"
}

func TestRealJournalsRead(t *testing.T) {
	for _, c := range []struct {
		file        string
		resumedFrom string
		replayed    int
	}{
		{"failed-run.jsonl", "", 0},
		{"resumed-run.jsonl", "20261206T140754Z-44be8af7", 9},
	} {
		t.Run(c.file, func(t *testing.T) {
			lines := journalLines(t, c.file)
			j, problems, err := Read(strings.NewReader(journalOf(lines...)))
			if err != nil || len(problems) != 0 {
				t.Fatalf("Read: %v, problems %v", err, problems)
			}
			h := j.Header
			if h.Workflow != "pipeline" || h.ResumedFrom != c.resumedFrom || len(h.BuildKeys) != 2 || !sha256Hex.MatchString(h.InputSHA256) {
				t.Errorf("header %+v", h)
			}
			if len(j.Entries) != len(lines)-1 {
				t.Fatalf("%d entries of %d lines after the header", len(j.Entries), len(lines)-1)
			}
			replayed := 0
			for i, e := range j.Entries {
				if err := Check(&e); err != nil {
					t.Errorf("entry %d: %v", i+1, err)
				}
				if e.Replayed {
					replayed++
				}
			}
			if replayed != c.replayed {
				t.Errorf("%d entries replayed, want %d", replayed, c.replayed)
			}
		})
	}
}

// replace returns line with old replaced by new, once; old must be there.
func replace(t testing.TB, line, old, new string) string {
	t.Helper()
	if !strings.Contains(line, old) {
		t.Fatalf("%q not in %s", old, line)
	}
	return strings.Replace(line, old, new, 1)
}

func TestRead(t *testing.T) {
	all := journalLines(t, "failed-run.jsonl")
	header, planner, reviewer := all[0], all[1], all[2]
	type problem struct {
		line   int
		reason string
	}
	for _, c := range []struct {
		name     string
		journal  string
		entries  int
		problems []problem
		err      error  // the error Read returns, by errors.Is
		errText  string // and a part of its text
	}{{
		name: "good", journal: journalOf(all...), entries: len(all) - 1,
	}, {
		name: "blank lines are no entries and no problems", journal: journalOf("", header, "", "  \t", planner, ""), entries: 1,
	}, {
		name: "CRLF line ends", journal: journalOf(header+"\r", planner+"\r"), entries: 1,
	}, {
		name:    "a torn last line is skipped",
		journal: journalOf(header, planner) + reviewer[:len(reviewer)/2], entries: 1,
		problems: []problem{{3, "torn"}},
	}, {
		// The writer appends a line and its newline in one write: a line
		// without its newline is torn even when what is there decodes.
		name:    "a last line without its newline is torn",
		journal: journalOf(header, planner) + reviewer, entries: 1,
		problems: []problem{{3, "torn"}},
	}, {
		name:    "a line that is not JSON is skipped",
		journal: journalOf(header, planner, `{"v":1,"kind":"agent.exe`, reviewer), entries: 2,
		problems: []problem{{3, "not JSON"}},
	}, {
		name:    "an entry of the wrong shape is skipped",
		journal: journalOf(header, `{"v":1,"kind":"agent.execute","execute":{"agent":"one"}}`, planner), entries: 1,
		problems: []problem{{2, "not a journal entry"}},
	}, {
		name:    "an entry that fails the check is skipped",
		journal: journalOf(header, replace(t, planner, `"agent":1`, `"agent":0`), reviewer), entries: 1,
		problems: []problem{{2, "must be ≥ 1"}},
	}, {
		name:    "an entry without a version is skipped",
		journal: journalOf(header, replace(t, planner, `"v":1,`, ``), reviewer), entries: 1,
		problems: []problem{{2, "no version"}},
	}, {
		name:    "an entry of a newer version is skipped",
		journal: journalOf(header, replace(t, planner, `"v":1,`, `"v":99,`), reviewer), entries: 1,
		problems: []problem{{2, "version 99 is newer"}},
	}, {
		name:    "an entry of an older version is skipped",
		journal: journalOf(header, replace(t, planner, `"v":1,`, `"v":0,`), reviewer), entries: 1,
		problems: []problem{{2, "not one this version of Stratos reads: 0"}},
	}, {
		name:    "a repeated place keeps the first entry",
		journal: journalOf(header, planner, replace(t, planner, `"text":"plan for caching"`, `"text":"another plan"`), reviewer), entries: 2,
		problems: []problem{{3, "repeats the entry of an earlier line"}},
	}, {
		name:    "a second header is skipped",
		journal: journalOf(header, planner, replace(t, header, `"executionId":"20261206T140754Z-44be8af7"`, `"executionId":"20261206T140754Z-00000000"`), reviewer), entries: 2,
		problems: []problem{{3, "second header"}},
	}, {
		name:    "a header of a newer version is refused",
		journal: journalOf(replace(t, header, `"v":1,`, `"v":99,`), planner), err: ErrNewer, errText: "version 99; this one reads 1",
	}, {
		name:    "a header of an older version is refused",
		journal: journalOf(replace(t, header, `"v":1,`, `"v":0,`), planner), err: ErrUnsupported,
	}, {
		name: "a journal that begins with an entry is refused", journal: journalOf(planner, header), err: ErrNoHeader, errText: `"agent.execute" entry`,
	}, {
		name: "a first line that is not JSON is refused", journal: journalOf("garbage", header), err: ErrNoHeader, errText: "not JSON",
	}, {
		name:    "a header without an execution ID is refused",
		journal: journalOf(replace(t, header, `"executionId":"20261206T140754Z-44be8af7",`, ``), planner), err: ErrNoHeader, errText: "header.executionId",
	}, {
		name: "a torn header is refused", journal: header, err: ErrNoHeader,
		problems: []problem{{1, "torn"}},
	}, {
		name: "an empty file is refused", journal: "", err: ErrNoHeader,
	}, {
		name: "a file of blank lines is refused", journal: "\n\n  \n", err: ErrNoHeader,
	}} {
		t.Run(c.name, func(t *testing.T) {
			j, problems, err := Read(strings.NewReader(c.journal))
			switch {
			case c.err != nil && (!errors.Is(err, c.err) || !strings.Contains(err.Error(), c.errText)):
				t.Fatalf("error %v, want %v with %q", err, c.err, c.errText)
			case c.err != nil && j != nil:
				t.Fatalf("a journal %+v with the error %v", j, err)
			case c.err == nil && err != nil:
				t.Fatalf("Read: %v", err)
			case c.err == nil && len(j.Entries) != c.entries:
				t.Fatalf("%d entries, want %d (problems %v)", len(j.Entries), c.entries, problems)
			}
			if len(problems) != len(c.problems) {
				t.Fatalf("problems %v, want %v", problems, c.problems)
			}
			for i, p := range problems {
				if want := c.problems[i]; p.Line != want.line || !strings.Contains(p.Reason, want.reason) {
					t.Errorf("problem %v, want line %d: …%s…", p, want.line, want.reason)
				}
			}
		})
	}
}

// The first of two entries of one place is the one kept.
func TestReadKeepsTheFirstOfAPlace(t *testing.T) {
	all := journalLines(t, "failed-run.jsonl")
	again := replace(t, all[1], `"text":"plan for caching"`, `"text":"another plan"`)
	j, _, err := Read(strings.NewReader(journalOf(all[0], all[1], again)))
	if err != nil {
		t.Fatal(err)
	}
	if x := j.Entries[0].Execute; len(j.Entries) != 1 || x.Text == nil || *x.Text != "plan for caching" {
		t.Fatalf("entries %+v, want the planner's first reply alone", j.Entries)
	}
}

func TestReadRefusesAJournalOverItsLimit(t *testing.T) {
	journal := journalOf(journalLines(t, "failed-run.jsonl")...)
	if _, _, err := read(strings.NewReader(journal), len(journal)); err != nil {
		t.Fatalf("a journal of exactly the limit: %v", err)
	}
	if j, _, err := read(strings.NewReader(journal), len(journal)-1); !errors.Is(err, ErrTooLarge) || j != nil {
		t.Fatalf("a journal one byte over the limit: %v, %+v; want ErrTooLarge", err, j)
	}
}

// validEntries are one well-formed entry of each kind.
func validEntries() map[string]func() *Entry {
	hash := strings.Repeat("ab", 32)
	text := "done"
	return map[string]func() *Entry{
		"header": func() *Entry {
			return &Entry{V: Version, Kind: KindHeader, Header: &Header{ExecutionID: "x", Workflow: "w"}}
		},
		"execute": func() *Entry {
			return &Entry{V: Version, Kind: KindExecute, Path: "w", InputSHA256: hash, Execute: &Execute{Agent: 1, Call: 1, Text: &text}}
		},
		"started": func() *Entry {
			return &Entry{V: Version, Kind: KindChildStarted, Path: "w", InputSHA256: hash, Child: &Child{Name: "c", K: 1}}
		},
		"completed": func() *Entry {
			return &Entry{V: Version, Kind: KindChildCompleted, Path: "w", Child: &Child{Name: "c", K: 1, Status: "succeeded"}}
		},
		"budget": func() *Entry {
			return &Entry{V: Version, Kind: KindBudget, Path: "w", Budget: &BudgetReading{Ordinal: 1}}
		},
		"decision": func() *Entry {
			return &Entry{V: Version, Kind: KindDecision, Path: "w", InputSHA256: hash, Decision: &DecisionCall{K: 1,
				Result: &agentproto.DecisionResult{Answer: json.RawMessage(`"red"`), Confidence: 1, Basis: agentproto.BasisAgreement, Samples: 1}}}
		},
	}
}

func TestCheck(t *testing.T) {
	valid := validEntries()
	for name, e := range valid {
		if err := Check(e()); err != nil {
			t.Errorf("the valid %s entry: %v", name, err)
		}
	}
	fail := &Error{Code: "execution_failed", Message: "boom"}
	for _, c := range []struct {
		name   string
		of     string
		change func(*Entry)
		want   string
	}{
		{"no part", "execute", func(e *Entry) { e.Execute = nil }, "holds 0"},
		{"two parts", "execute", func(e *Entry) { e.Budget = &BudgetReading{Ordinal: 1} }, "holds 2"},
		{"an unknown kind", "execute", func(e *Entry) { e.Kind = "agent.think" }, `unknown kind "agent.think"`},
		{"a decision without a path", "decision", func(e *Entry) { e.Path = "" }, "needs a path"},
		{"a decision of k 0", "decision", func(e *Entry) { e.Decision.K = 0 }, "decision.k ≥ 1"},
		{"a decision without an input hash", "decision", func(e *Entry) { e.InputSHA256 = "" }, "decision.call entry needs inputSha256"},
		{"a decision with a result and an error", "decision", func(e *Entry) { e.Decision.Error = fail }, "not both or neither"},
		{"a decision with neither", "decision", func(e *Entry) { e.Decision.Result = nil }, "not both or neither"},
		{"a decision result without its answer", "decision", func(e *Entry) { e.Decision.Result.Answer = nil }, "needs its answer"},
		{"a decision kind holding an execute", "execute", func(e *Entry) { e.Kind = KindDecision }, "decision.call entry needs decision"},
		{"a kind without its part", "execute", func(e *Entry) { e.Kind = KindHeader }, "header needs"},
		{"a header without an execution ID", "header", func(e *Entry) { e.Header.ExecutionID = "" }, "header.executionId"},
		{"a header without a workflow", "header", func(e *Entry) { e.Header.Workflow = "" }, "header.workflow"},
		{"an execute without a path", "execute", func(e *Entry) { e.Path = "" }, "needs a path"},
		{"an execute without an input hash", "execute", func(e *Entry) { e.InputSHA256 = "" }, "inputSha256"},
		{"an execute with a short input hash", "execute", func(e *Entry) { e.InputSHA256 = e.InputSHA256[2:] }, "inputSha256"},
		{"an execute with an upper-case input hash", "execute", func(e *Entry) { e.InputSHA256 = strings.ToUpper(e.InputSHA256) }, "inputSha256"},
		{"an execute of agent 0", "execute", func(e *Entry) { e.Execute.Agent = 0 }, "are 0 and 1"},
		{"an execute of call 0", "execute", func(e *Entry) { e.Execute.Call = 0 }, "are 1 and 0"},
		{"an execute with a result and an error", "execute", func(e *Entry) { e.Execute.Error = fail }, "not both or neither"},
		{"an execute with a value and an error", "execute", func(e *Entry) {
			e.Execute.Text, e.Execute.Value, e.Execute.Error = nil, json.RawMessage(`{}`), fail
		}, "not both or neither"},
		{"an execute with neither", "execute", func(e *Entry) { e.Execute.Text = nil }, "not both or neither"},
		{"a child start without a path", "started", func(e *Entry) { e.Path = "" }, "needs a path"},
		{"a child start without a name", "started", func(e *Entry) { e.Child.Name = "" }, "child.name"},
		{"a child start of k 0", "started", func(e *Entry) { e.Child.K = 0 }, "child.k ≥ 1"},
		{"a child start without an input hash", "started", func(e *Entry) { e.InputSHA256 = "" }, "child.started entry needs inputSha256"},
		{"a child completion without a status", "completed", func(e *Entry) { e.Child.Status = "" }, "child.status"},
		{"a child completion of k 0", "completed", func(e *Entry) { e.Child.K = 0 }, "child.k ≥ 1"},
		{"a budget reading without a path", "budget", func(e *Entry) { e.Path = "" }, "needs a path"},
		{"a budget reading of ordinal 0", "budget", func(e *Entry) { e.Budget.Ordinal = 0 }, "ordinal ≥ 1"},
	} {
		e := valid[c.of]()
		c.change(e)
		if err := Check(e); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
	// A decision may hold its error alone.
	e := valid["decision"]()
	e.Decision.Result, e.Decision.Error = nil, fail
	if err := Check(e); err != nil {
		t.Errorf("a decision with an error: %v", err)
	}
	// An execute's result may be a value instead of text, or an error alone.
	for name, change := range map[string]func(*Entry){
		"a value":  func(e *Entry) { e.Execute.Text, e.Execute.Value = nil, json.RawMessage(`{"a":1}`) },
		"an error": func(e *Entry) { e.Execute.Text, e.Execute.Error = nil, fail },
	} {
		e := valid["execute"]()
		change(e)
		if err := Check(e); err != nil {
			t.Errorf("an execute with %s: %v", name, err)
		}
	}
}

// Decisions of one invocation are places by k: a line that repeats a
// decision's place is a problem, and the first stands.
func TestReadDecisionPlaces(t *testing.T) {
	header := journalLines(t, "failed-run.jsonl")[0]
	line := func(k int, answer string) string {
		e := validEntries()["decision"]()
		e.Decision.K, e.Decision.Result.Answer = k, json.RawMessage(answer)
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	j, problems, err := Read(strings.NewReader(journalOf(header, line(1, `"red"`), line(2, `"blue"`), line(1, `"blue"`))))
	if err != nil {
		t.Fatal(err)
	}
	if len(j.Entries) != 2 || string(j.Entries[0].Decision.Result.Answer) != `"red"` || j.Entries[1].Decision.K != 2 {
		t.Fatalf("entries %+v", j.Entries)
	}
	if len(problems) != 1 || problems[0].Line != 4 || !strings.Contains(problems[0].Reason, `decision.call "w" 1`) {
		t.Fatalf("problems %v", problems)
	}
}

// Places whose names hold the separators stay apart: server "a/b" with
// tool "c" is not server "a" with tool "b/c".
func TestPlacesWithSeparatorsInNamesDoNotCollide(t *testing.T) {
	one := Entry{Kind: KindMCPCall, Path: "wf", MCP: &MCPCall{Server: "a/b", Tool: "c", K: 1}}
	two := Entry{Kind: KindMCPCall, Path: "wf", MCP: &MCPCall{Server: "a", Tool: "b/c", K: 1}}
	if one.identity() == two.identity() {
		t.Errorf("two places share the identity %s", one.identity())
	}
	a := Entry{Kind: KindExecute, Path: "wf", Execute: &Execute{ConfigID: "x#y", Agent: 1, Call: 1}}
	b := Entry{Kind: KindExecute, Path: "wf", Execute: &Execute{ConfigID: "x", Label: "y", Agent: 1, Call: 1}}
	if a.identity() == b.identity() {
		t.Errorf("two agents share the identity %s", a.identity())
	}
}
