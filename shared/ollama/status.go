package ollama

import (
	"context"
	"errors"
)

// Status is the diagnosis `stratos provider status ollama` reports.
type Status struct {
	Provider string `json:"provider"`
	Host     string `json:"host"`
	// HostSource is "OLLAMA_HOST" or "default".
	HostSource string `json:"hostSource"`
	Reachable  bool   `json:"reachable"`
	Version    string `json:"version,omitempty"`
	// Models is the whole inventory, each with whether an agent may use it.
	Models []ModelStatus `json:"models"`
	// Eligible names the models agents may use.
	Eligible []string `json:"eligible"`
	// Problem is why the server could not be diagnosed fully.
	Problem *Problem `json:"problem,omitempty"`
	// Instructions are for the user to run (Stratos never runs them).
	Instructions Instructions `json:"instructions"`
}

// ModelStatus is one inventory entry in a Status.
type ModelStatus struct {
	Model
	// Context is what harness metadata uses (num_ctx, else ArchContext).
	Context  int    `json:"context"`
	Eligible bool   `json:"eligible"`
	Reason   string `json:"reason,omitempty"`
}

// Problem is an error in a Status document.
type Problem struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Diagnose reads the server's version and inventory. A server that cannot
// be reached or answers badly is a diagnosis (Reachable false or a
// Problem), not an error; only ctx ending is.
func Diagnose(ctx context.Context, host Host, fromEnv bool, goos string) (Status, error) {
	st := Status{Provider: Provider, Host: host.String(), HostSource: "default", Models: []ModelStatus{}, Eligible: []string{},
		Instructions: InstructionsFor(goos)}
	if fromEnv {
		st.HostSource = EnvHost
	}
	c := Client{Host: host}
	v, err := c.Version(ctx)
	if err == nil {
		st.Reachable, st.Version = true, v
		var ms []Model
		if ms, err = c.Inventory(ctx); err == nil {
			st.addModels(ms)
		}
	}
	if ctx.Err() != nil {
		return st, ctx.Err()
	}
	if err != nil {
		st.Problem = problemOf(err)
	}
	return st, nil
}

func (st *Status) addModels(ms []Model) {
	for _, m := range ms {
		ok, why := m.Eligible()
		st.Models = append(st.Models, ModelStatus{Model: m, Context: m.Context(), Eligible: ok, Reason: why})
		if ok {
			st.Eligible = append(st.Eligible, m.Name)
		}
	}
}

func problemOf(err error) *Problem {
	var oe *Error
	if errors.As(err, &oe) {
		return &Problem{Code: oe.Code, Message: err.Error()}
	}
	return &Problem{Code: CodeInventory, Message: err.Error()}
}
