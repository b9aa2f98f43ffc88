package runapi

import "strconv"

// Tool is the binary of `stratos run`, `stratos runs` and `stratos test`.
const Tool = "stratos-run"

// TestCheck is the answer of `stratos-run test <workflow> --check --json`
// when every case and script is valid; when one is not, the command fails
// with test_cases_invalid, whose details' "problems" list each problem
// (file, line, case and agent, then what is wrong). `stratos build` asks
// it for the workflows it builds that have test cases.
type TestCheck struct {
	// Cases is how many cases were checked.
	Cases int `json:"cases"`
}

// TestCaseProblem is one problem of a workflow's test cases: where it is
// (the case file relative to the workflow directory, the line, the case and
// the agent whose script is at fault, each when known) and what is wrong.
// The details of a test_cases_invalid error list them under "problems".
type TestCaseProblem struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Case    string `json:"case,omitempty"`
	Agent   string `json:"agent,omitempty"`
	Message string `json:"message"`
}

// String is the problem as one line: file:line: case "c", agent a: message.
func (p TestCaseProblem) String() string {
	where := p.File
	if p.Line > 0 {
		where += ":" + strconv.Itoa(p.Line)
	}
	if p.Case != "" {
		where += ": case " + strconv.Quote(p.Case)
		if p.Agent != "" {
			where += ", agent " + p.Agent
		}
	}
	return where + ": " + p.Message
}
