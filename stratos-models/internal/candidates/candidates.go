// Package candidates orders the (harness, model, provider, native ID)
// combinations an agent will try, following the model-based harness
// preference (docs/design/harness-selection.md):
//
//   - no explicit harness: a first pass over all models in declared order
//     with their creator's first-party harness (Anthropic → Claude Code,
//     OpenAI → Codex), then a second pass over all models through the
//     harness whose rules take it (OpenCode; models of other creators
//     appear only there);
//   - an explicit harness: only that harness, models in declared order;
//   - explicit provider ollama: the names are native Ollama tags, no
//     translation, and only an explicit codex or opencode harness.
//
// The catalog knows nothing about installation, credentials or account
// access, so every candidate is only provisionally eligible; the agent host
// checks the rest at initialization.
package candidates

import (
	"strings"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-models/internal/lookup"
	"github.com/stratoscli/stratos/stratos-models/internal/providermap"
)

// Passes, as reported on each candidate; the second pass is named after
// its harness ("opencode").
const (
	PassFirstParty = "first-party"
	PassExplicit   = "explicit-harness"
)

// Eligibility is what the catalog can say about a candidate: nothing about
// availability or account access.
const Eligibility = "provisional"

// Note is repeated in every result so no reader mistakes the list for
// proof of access.
const Note = "Candidates are only provisionally eligible: the catalog says nothing about installation, authentication, model availability or account access; the agent host checks those at initialization."

// Request is one agent's model selection.
type Request struct {
	Models   []string          // canonical IDs (Ollama names with provider ollama), in declared order
	Harness  string            // explicit harness, or ""
	Provider string            // explicit provider, or ""
	Backends map[string]string // harness → provider its adapter detected (e.g. claude-code → amazon-bedrock)
}

// Candidate is one combination to try, in order.
type Candidate = modelsapi.Candidate

// Native is what the adapter passes to the harness.
type Native = modelsapi.Native

// Exclusion is a combination that was considered and cannot be used.
type Exclusion = modelsapi.Exclusion

// Result is the ordered answer.
type Result = modelsapi.CandidatesResult

// Build orders the candidates for req. Invalid requests (unknown model,
// harness or provider; Ollama without an allowed explicit harness) are
// usage errors; a valid request with no usable combination is a
// no_candidates error whose details carry the exclusions.
func Build(d *lookup.Data, req Request) (*Result, error) {
	if err := validate(d, req); err != nil {
		return nil, err
	}
	b := &builder{d: d, req: req, seen: map[string]bool{},
		res: &Result{CatalogCommit: d.Catalog.Source.Commit, Harness: req.Harness, Provider: req.Provider,
			Candidates: []Candidate{}, Excluded: []Exclusion{}, Note: Note}}
	switch {
	case req.Harness != "":
		for _, model := range req.Models {
			b.consider(req.Harness, model, PassExplicit)
		}
	default:
		for _, model := range req.Models {
			if h := d.Mapping.FirstPartyHarness(creatorOf(model)); h != "" {
				b.consider(h, model, PassFirstParty)
			}
		}
		if h := d.Mapping.SecondPassHarness(); h != "" {
			for _, model := range req.Models {
				b.consider(h, model, h)
			}
		}
	}
	if len(b.res.Candidates) == 0 {
		return nil, clierr.New(modelsapi.CodeNoCandidates, "no usable harness/model/provider combination for %s (catalog %s)",
			strings.Join(req.Models, ", "), d.Catalog.Source.Commit).
			WithDetails(map[string]any{"excluded": b.res.Excluded, "catalogCommit": d.Catalog.Source.Commit})
	}
	return b.res, nil
}

func creatorOf(model string) string {
	creator, _, _ := strings.Cut(model, "/")
	return creator
}

type builder struct {
	d    *lookup.Data
	req  Request
	res  *Result
	seen map[string]bool // harness/model/provider already considered
}

func (b *builder) exclude(harness, model, provider, reason, msg string) {
	b.res.Excluded = append(b.res.Excluded, Exclusion{Harness: harness, Model: model, Provider: provider, Reason: reason, Message: msg})
}

// consider adds harness/model as a candidate or records why it cannot be one.
func (b *builder) consider(harnessID, model, pass string) {
	h := b.d.Mapping.Harnesses[harnessID]
	provider := b.provider(harnessID, h, model)
	key := harnessID + "\x00" + model + "\x00" + provider
	if b.seen[key] {
		return // a model listed twice is tried once
	}
	b.seen[key] = true
	if b.d.NativeNamesProvider(provider) {
		b.addNativeName(harnessID, h, model, provider, pass)
		return
	}
	if reason, msg := b.unusable(harnessID, h, model, provider); reason != "" {
		b.exclude(harnessID, model, provider, reason, msg)
		return
	}
	res, err := b.d.Resolve(model, provider)
	if err != nil {
		b.exclude(harnessID, model, provider, modelsapi.ReasonNoMapping, clierr.As(err).Message)
		return
	}
	b.add(harnessID, h, res, pass, modelsapi.SourcePackaged)
}

// provider is the explicit provider, else the adapter-detected backend,
// else the harness's default for the model's creator.
func (b *builder) provider(harnessID string, h *providermap.Harness, model string) string {
	if b.req.Provider != "" {
		return b.req.Provider
	}
	if p := b.req.Backends[harnessID]; p != "" {
		return p
	}
	return h.DefaultProviderFor(creatorOf(model))
}

// unusable checks capabilities and harness/provider fit before any lookup.
func (b *builder) unusable(harnessID string, h *providermap.Harness, model, provider string) (string, string) {
	m, err := b.d.Catalog.Model(model)
	if err != nil {
		return modelsapi.CodeUnknownModel, clierr.As(err).Message // validate() already rejected unknown models
	}
	switch {
	case !m.ToolCall:
		return modelsapi.ReasonNoToolCall, model + " cannot call tools (Models.dev tool_call = false); agents need tools"
	case !m.OutputsText():
		return modelsapi.ReasonNoTextOutput, model + " does not produce text (output modalities: " + strings.Join(m.Modalities.Output, ", ") + ")"
	case !h.RunsCreator(m.Creator):
		return modelsapi.ReasonHarnessIncompatible, h.Name + " runs only " + strings.Join(h.Creators, ", ") + " models, not " + m.Creator
	case provider == "":
		return modelsapi.ReasonNoDefaultProvider, h.Name + " has no default provider for " + m.Creator + " models; configure the backend (--backend " + harnessID + "=<provider>)"
	case !h.Supports(provider, b.d.Catalog.HasProvider):
		return modelsapi.ReasonProviderUnsupported, h.Name + " does not support provider " + provider
	}
	return "", ""
}

func (b *builder) add(harnessID string, h *providermap.Harness, res *lookup.Resolution, pass, source string) {
	b.res.Candidates = append(b.res.Candidates, Candidate{
		Harness: harnessID, Model: res.Model, Provider: res.Provider, NativeID: res.NativeID, Origin: res.Origin, Cost: res.Cost,
		Pass: pass, Eligibility: Eligibility, Native: native(h, res.Provider, res.NativeID), Source: source,
	})
}

// addNativeName adds an Ollama name untranslated (its tag normalized).
func (b *builder) addNativeName(harnessID string, h *providermap.Harness, model, provider, pass string) {
	res, err := b.d.Resolve(model, provider)
	if err != nil {
		b.exclude(harnessID, model, provider, modelsapi.CodeInvalidOllamaName, clierr.As(err).Message)
		return
	}
	b.add(harnessID, h, res, pass, modelsapi.SourceConfigured)
}

// native builds the adapter's view of one candidate from the mapping.
func native(h *providermap.Harness, provider, nativeID string) Native {
	hp := h.Native(provider)
	n := Native{Model: nativeID, Env: hp.Env, ModelProvider: hp.ModelProvider, ProviderTable: hp.ProviderTable}
	if h.QualifiedModels {
		n.ProviderID = provider
		if hp.ProviderID != "" {
			n.ProviderID = hp.ProviderID
		}
		n.Model = n.ProviderID + "/" + nativeID
	}
	return n
}
