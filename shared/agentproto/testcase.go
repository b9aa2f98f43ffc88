package agentproto

import "encoding/json"

// TestCaseEnv names the environment variable by which `stratos test` tells
// the agent host of a run that the run is a test case: its value is the
// JSON of TestCase. It is the environment rather than a message because
// the host must treat every agent of the run alike, the agents of children
// that did not inherit the case's overrides included, and the environment
// is what the whole process tree of the run shares (the runtime, the host
// it starts).
const TestCaseEnv = "STRATOS_TEST_CASE"

// TestCase is the test case a run is.
type TestCase struct {
	// Name names the case in the host's errors: its workflow and name.
	Name string `json:"name"`
	// File is the case file, relative to the workflow directory.
	File string `json:"file"`
	// AllowRealHarness lets the run's agents run on harnesses other than
	// test; without it the host refuses them (CodeUnscriptedAgent).
	AllowRealHarness bool `json:"allowRealHarness,omitempty"`
}

// ParseTestCase reads TestCaseEnv's value: nil for none. A value that is
// not a TestCase is a test case still, named by the value, that allows no
// real harness: a mangled mark must not let a test run spend tokens.
func ParseTestCase(value string) *TestCase {
	if value == "" {
		return nil
	}
	var tc TestCase
	if json.Unmarshal([]byte(value), &tc) != nil || tc.Name == "" {
		return &TestCase{Name: value}
	}
	return &tc
}

// String names the case as errors do: "review / forgot the critic"
// (tests/review.yaml).
func (tc TestCase) String() string {
	s, _ := json.Marshal(tc.Name)
	if tc.File == "" {
		return string(s)
	}
	return string(s) + " (" + tc.File + ")"
}
