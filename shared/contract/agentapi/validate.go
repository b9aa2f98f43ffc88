package agentapi

import "encoding/json"

// ConfigValidationRequest is the stdin document of `stratos-agent
// validate-config --json` when no directory is given as argument.
type ConfigValidationRequest struct {
	Dir string `json:"dir"`
	// Overrides is an invocation's overrides document ({"agents": {<id>:
	// {…}}, "decision": {…}}), whose agents entries are checked too, as
	// the agent host checks them when it creates an agent, and whose
	// decision layer is checked on its own as a decision checks it (its
	// fields and the test provider's script). `stratos run` sends the
	// agents entries of its --overrides, so that an invalid setting is
	// refused before the run starts (its decision overrides are checked
	// when a decision uses them); `stratos test --check` sends each case's
	// overrides. Their problems' paths start with "overrides.agents." or
	// "overrides.decision".
	Overrides json.RawMessage `json:"overrides,omitempty"`
}

// ConfigValidation is the JSON result of `stratos-agent validate-config
// <workflow-dir> --json` (exit 1 when Valid is false).
type ConfigValidation struct {
	Dir      string          `json:"dir"`
	File     string          `json:"file"` // the workflow.yaml checked
	Valid    bool            `json:"valid"`
	Problems []ConfigProblem `json:"problems"`
}

// ConfigProblem is one problem of a workflow's agents section: the file,
// the path of the field in it, and what is wrong.
type ConfigProblem struct {
	File    string `json:"file,omitempty"`
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (p ConfigProblem) String() string {
	if p.File == "" {
		return p.Path + ": " + p.Message
	}
	return p.File + ": " + p.Path + ": " + p.Message
}
