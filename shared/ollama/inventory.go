package ollama

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Capabilities an agent model must advertise in /api/show.
const (
	CapCompletion = "completion"
	CapTools      = "tools"
)

// CapVision is advertised by a model that takes image input.
const CapVision = "vision"

// Model is one installed model as the server describes it.
type Model struct {
	Name         string   `json:"name"`
	Digest       string   `json:"digest,omitempty"`
	Family       string   `json:"family,omitempty"`
	Quantization string   `json:"quantization,omitempty"`
	Capabilities []string `json:"capabilities"`
	// Remote marks a cloud entry: listed, but nothing runs locally.
	Remote bool `json:"remote,omitempty"`
	// ArchContext is the architecture's advertised context limit
	// (model_info <architecture>.context_length; 0 when not reported).
	ArchContext int `json:"archContext,omitempty"`
	// NumCtx and NumPredict are the model's saved parameters; 0 and
	// HasNumPredict false when not set.
	NumCtx        int  `json:"numCtx,omitempty"`
	NumPredict    int  `json:"numPredict,omitempty"`
	HasNumPredict bool `json:"-"`
}

// Context is the context window harness metadata uses: the model's own
// num_ctx when set, else the advertised architecture limit (which is not
// proof of the context the server loads it with).
func (m Model) Context() int {
	if m.NumCtx > 0 {
		return m.NumCtx
	}
	return m.ArchContext
}

// Eligible reports whether an agent may use the model: installed locally
// and advertising both completion and tools. why says what is missing.
func (m Model) Eligible() (ok bool, why string) {
	var missing []string
	for _, c := range []string{CapCompletion, CapTools} {
		if !slices.Contains(m.Capabilities, c) {
			missing = append(missing, c)
		}
	}
	switch {
	case m.Remote:
		return false, "a remote (cloud) entry, not a local model"
	case len(missing) > 0:
		return false, "lacks the " + strings.Join(missing, " and ") + " capability"
	}
	return true, ""
}

// Inventory is every model the server lists, described by /api/show.
func (c Client) Inventory(ctx context.Context) ([]Model, error) {
	tags, err := c.tags(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Model, 0, len(tags))
	for _, t := range tags {
		m, err := c.describe(ctx, t)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// Names are the local models the server lists (/api/tags alone, tags
// included), in its order: the server's own model list, which selection
// consults before any adapter starts. Remote (cloud) entries are left out,
// as Ready refuses them.
func (c Client) Names(ctx context.Context) ([]string, error) {
	tags, err := c.tags(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(tags))
	for _, t := range tags {
		if t.RemoteHost == "" {
			out = append(out, t.name())
		}
	}
	return out, nil
}

// Ready checks that every named model (tags normalized) is installed and
// eligible, reading /api/show only for the named ones. It returns them in
// the given order, or one error naming every model that is not ready:
// CodeModelMissing when any is missing, else CodeModelIneligible.
func (c Client) Ready(ctx context.Context, names []string) ([]Model, error) {
	tags, err := c.tags(ctx)
	if err != nil {
		return nil, err
	}
	byName := map[string]tagsEntry{}
	for _, t := range tags {
		byName[t.name()] = t
	}
	var ready []Model
	var missing, ineligible []string
	for _, raw := range names {
		name, err := NormalizeName(raw)
		if err != nil {
			return nil, err
		}
		t, ok := byName[name]
		if !ok {
			missing = append(missing, name)
			continue
		}
		m, err := c.describe(ctx, t)
		if err != nil {
			return nil, err
		}
		if ok, why := m.Eligible(); !ok {
			ineligible = append(ineligible, name+" ("+why+")")
			continue
		}
		ready = append(ready, m)
	}
	if err := c.notReady(tags, missing, ineligible); err != nil {
		return nil, err
	}
	return ready, nil
}

func (c Client) notReady(tags []tagsEntry, missing, ineligible []string) error {
	switch {
	case len(missing) > 0:
		installed := make([]string, 0, len(tags))
		for _, t := range tags {
			if t.RemoteHost == "" {
				installed = append(installed, t.name())
			}
		}
		sort.Strings(installed)
		list := "none"
		if len(installed) > 0 {
			list = joinNames(installed)
		}
		return &Error{Code: CodeModelMissing, Host: c.Host.String(), Models: missing,
			msg: fmt.Sprintf("not installed: %s (installed: %s); Stratos does not pull models: run `ollama pull <model>` yourself",
				joinNames(missing), list)}
	case len(ineligible) > 0:
		return &Error{Code: CodeModelIneligible, Host: c.Host.String(), Models: ineligible,
			msg: "cannot serve an agent (needs a local model with the completion and tools capabilities): " + joinNames(ineligible)}
	}
	return nil
}

func (t tagsEntry) name() string {
	if t.Name != "" {
		return t.Name
	}
	return t.Model
}

// describe completes a tags entry with /api/show.
func (c Client) describe(ctx context.Context, t tagsEntry) (Model, error) {
	s, err := c.show(ctx, t.name())
	if errors.Is(err, errNotFound) {
		return Model{}, c.inventoryError(fmt.Sprintf("/api/tags lists %s but /api/show does not know it", t.name()), nil)
	}
	if err != nil {
		return Model{}, err
	}
	m := Model{Name: t.name(), Digest: t.Digest, Family: t.Details.Family, Quantization: t.Details.Quantization,
		Capabilities: s.Capabilities, Remote: t.RemoteHost != "" || s.RemoteHost != "", ArchContext: archContext(s.ModelInfo)}
	if m.Capabilities == nil {
		m.Capabilities = []string{}
	}
	params := parameters(s.Parameters)
	if v, ok := params["num_ctx"]; ok {
		m.NumCtx = v
	}
	m.NumPredict, m.HasNumPredict = params["num_predict"]
	return m, nil
}

// archContext is model_info's "<general.architecture>.context_length".
func archContext(info map[string]any) int {
	arch, _ := info["general.architecture"].(string)
	if n, ok := info[arch+".context_length"].(float64); ok && arch != "" {
		return int(n)
	}
	return 0
}

// parameters reads the integer lines of /api/show's parameters block
// ("num_ctx    65536").
func parameters(block string) map[string]int {
	out := map[string]int{}
	for _, line := range strings.Split(block, "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		if n, err := strconv.Atoi(f[1]); err == nil {
			out[f[0]] = n
		}
	}
	return out
}
