package host

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/ollama"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// nativeListBound bounds one harness's own model list (a process such as
// `opencode models`, or a loopback request): a list that takes longer is
// not waited for, and the packaged catalog answers instead.
const nativeListBound = 10 * time.Second

// nativeKey is one list: a harness's models on one provider.
type nativeKey struct{ harness, provider string }

// nativeAnswer is a list or why there is none.
type nativeAnswer struct {
	list adapter.NativeModels
	err  error
}

// consultNative checks cands against the model lists their harnesses have
// of their own (adapter.Harness.Models; docs/design/harness-registration.md),
// asked for each candidate's provider (provider when the candidate names
// none: an explicit harness's). A candidate a complete list lacks is
// dropped, and one a list names says so in its Source. A harness without a
// list for the provider, or whose list failed or took longer than the
// bound, keeps the packaged catalog's answer, and the failure is logged.
// When the lists leave no candidate, all are kept: their adapters then
// refuse them with their own, more precise errors (an Ollama model that is
// not installed names the installed ones).
func (h *Host) consultNative(ctx context.Context, agent, provider string, cands []candidate) ([]candidate, error) {
	answers := h.nativeLists(ctx, provider, cands)
	if err := ctx.Err(); err != nil {
		return nil, agentproto.Errorf(agentproto.CodeCancelled, "agent %q: selection was cancelled while the harnesses listed their models", agent).Wrap(err)
	}
	kept := make([]candidate, 0, len(cands))
	for i, c := range cands {
		a, asked := answers[nativeKey{c.Harness, cmp.Or(c.Provider, provider)}]
		switch {
		case !asked || errors.Is(a.err, adapter.ErrNoModelList):
		case a.err != nil:
			h.log.Warn("the harness's model list failed; the packaged catalog answers", "agent", agent, "harness", c.Harness,
				"provider", cmp.Or(c.Provider, provider), "error", a.err)
		case a.list.Has(c.Native):
			cands[i].Source = a.list.Source
		case a.list.Complete:
			h.log.Info("candidate dropped: not in the harness's model list", "agent", agent, "harness", c.Harness,
				"model", c.Native, "source", a.list.Source)
			continue
		}
		kept = append(kept, cands[i])
	}
	if len(kept) == 0 {
		return cands, nil
	}
	return kept, nil
}

// nativeLists asks the harnesses of cands for their own model lists,
// once per provider, all at once and each within nativeListBound. Only the
// candidates up to the first one whose harness has no list are asked
// about: selection starts with that one without waiting, and a later
// candidate's adapter refuses a model it lacks when selection reaches it.
// Asking every candidate's harness up front would make every agent start
// wait for the slowest list (`opencode models` takes seconds) even when
// the first candidate serves it.
func (h *Host) nativeLists(ctx context.Context, provider string, cands []candidate) map[nativeKey]nativeAnswer {
	var keys []nativeKey
	for _, c := range cands {
		k := nativeKey{c.Harness, cmp.Or(c.Provider, provider)}
		if c.Native == "" || k.provider == "" || h.harnesses[c.Harness].Models == nil {
			break
		}
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	out := make(map[nativeKey]nativeAnswer, len(keys))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, k := range keys {
		wg.Go(func() {
			a := h.nativeList(ctx, k)
			mu.Lock()
			out[k] = a
			mu.Unlock()
		})
	}
	wg.Wait()
	return out
}

// nativeList is one harness's list of one provider's models, asked once
// per host: the agents of a fan-out share the answer. A list that failed
// (or was late) is asked again by the next agent.
func (h *Host) nativeList(ctx context.Context, k nativeKey) nativeAnswer {
	h.native.mu.Lock()
	if h.native.lists == nil {
		h.native.lists = map[nativeKey]*nativeEntry{}
	}
	e, ok := h.native.lists[k]
	if !ok {
		e = &nativeEntry{done: make(chan struct{})}
		h.native.lists[k] = e
	}
	h.native.mu.Unlock()
	if ok {
		select {
		case <-e.done:
			return e.answer
		case <-ctx.Done():
			return nativeAnswer{err: ctx.Err()}
		}
	}
	lctx, cancel := context.WithTimeout(ctx, h.nativeBound)
	defer cancel()
	l, err := h.harnesses[k.harness].Models(lctx, k.provider)
	e.answer = nativeAnswer{list: l, err: err}
	if err != nil && !errors.Is(err, adapter.ErrNoModelList) {
		h.native.mu.Lock()
		delete(h.native.lists, k)
		h.native.mu.Unlock()
	}
	close(e.done)
	return e.answer
}

// nativeCache holds the host's answers of harnesses' own model lists.
type nativeCache struct {
	mu    sync.Mutex
	lists map[nativeKey]*nativeEntry
}

// nativeEntry is one list being asked for (done open) or answered.
type nativeEntry struct {
	done   chan struct{}
	answer nativeAnswer
}

// withNativeNames gives an explicit harness's candidates on provider
// ollama their native model string, the configured name with its tag
// (what the server lists); a name that is not valid stays without one, for
// the adapter to refuse.
func withNativeNames(cands []candidate, provider string) []candidate {
	if provider != ollama.Provider {
		return cands
	}
	for i, c := range cands {
		if n, err := ollama.NormalizeName(c.Model); err == nil {
			cands[i].Native = n
		}
	}
	return cands
}
