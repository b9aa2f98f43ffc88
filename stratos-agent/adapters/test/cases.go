package test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/stratoscli/stratos/stratos-agent/prompt"
)

// ledger counts the calls of one agent host across its agent objects: per
// configuration (a case's `when.call`) and per case served (the run
// record's counts). One ledger serves one top-level execution.
type ledger struct {
	mu     sync.Mutex
	calls  map[string]int
	served map[string]int
}

func newLedger() *ledger {
	return &ledger{calls: map[string]int{}, served: map[string]int{}}
}

// nextCall numbers the next call of the configuration key, from 1.
func (l *ledger) nextCall(key string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls[key]++
	return l.calls[key]
}

// serve counts one call served by a case and returns the case's count so far.
func (l *ledger) serve(key string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.served[key]++
	return l.served[key]
}

// callInfo is what case selection knows about one call.
type callInfo struct {
	prompt string
	label  string
	// call is the call's index across the configuration.
	call int
}

// chosen is the case serving a call, with the prompt's captures: those of
// promptMatches' first match, and every match's for templates that loop.
type chosen struct {
	c        *Case
	captures map[string]any
	matches  []any
}

// choose returns the first case whose `when` holds for the call.
func (s *Script) choose(info callInfo) (chosen, bool) {
	for i := range s.Cases {
		c := &s.Cases[i]
		if captures, ok := c.When.holds(info); ok {
			return chosen{c: c, captures: captures, matches: c.When.allMatches(info.prompt)}, true
		}
	}
	return chosen{}, false
}

// holds reports whether every condition of w holds; the captures are the
// groups of promptMatches, by index ("0" is the whole match) and by name.
func (w *When) holds(info callInfo) (map[string]any, bool) {
	captures := map[string]any{}
	if w == nil {
		return captures, true
	}
	switch {
	case w.PromptContains != "" && !strings.Contains(info.prompt, w.PromptContains),
		w.PromptNotContains != "" && strings.Contains(info.prompt, w.PromptNotContains),
		w.Label != "" && w.Label != info.label,
		w.Call != 0 && w.Call != info.call:
		return nil, false
	}
	if w.PromptMatches == "" {
		return captures, true
	}
	m := w.re.FindStringSubmatch(info.prompt)
	if m == nil {
		return nil, false
	}
	return groups(w.re, m), true
}

// allMatches are the groups of every match of promptMatches in the prompt
// (none without promptMatches): `{{#each matches}}` answers a prompt that
// lists items with one entry per item.
func (w *When) allMatches(prompt string) []any {
	if w == nil || w.re == nil {
		return []any{}
	}
	all := w.re.FindAllStringSubmatch(prompt, -1)
	out := make([]any, len(all))
	for i, m := range all {
		out[i] = groups(w.re, m)
	}
	return out
}

// groups are a match's groups by index ("0" is the whole match) and by name.
func groups(re *regexp.Regexp, m []string) map[string]any {
	captures := map[string]any{}
	for i, g := range m {
		captures[fmt.Sprint(i)] = g
		if name := re.SubexpNames()[i]; name != "" {
			captures[name] = g
		}
	}
	return captures
}

// caseNames lists the names of the cases, for "no case matched" errors.
func (s *Script) caseNames() string {
	names := make([]string, len(s.Cases))
	for i, c := range s.Cases {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

// renderValue renders every string of a scripted structured value as a
// template over rctx; numbers, booleans and structure stay as written.
func renderValue(tpl *prompt.Inline, raw json.RawMessage, rctx map[string]any) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	out, err := renderStrings(tpl, v, rctx)
	if err != nil {
		return nil, err
	}
	return json.Marshal(out)
}

func renderStrings(tpl *prompt.Inline, v any, rctx map[string]any) (any, error) {
	switch x := v.(type) {
	case string:
		return tpl.Render(x, rctx)
	case map[string]any:
		for k, e := range x {
			r, err := renderStrings(tpl, e, rctx)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			x[k] = r
		}
	case []any:
		for i, e := range x {
			r, err := renderStrings(tpl, e, rctx)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			x[i] = r
		}
	}
	return v, nil
}
