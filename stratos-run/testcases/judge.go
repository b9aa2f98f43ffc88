package testcases

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// Observed is what one run of a case produced.
type Observed struct {
	// Output is the workflow's output (nil when it failed).
	Output json.RawMessage
	// ErrorCodes are the failure's code and its causes' (empty on success).
	ErrorCodes []string
	// ErrorMessage is the failure's message.
	ErrorMessage string
	// Calls counts the calls agents' harnesses answered (see Counts), by
	// configId and by configId#label.
	Calls map[string]int
	// Served counts the calls each test-script case served, by
	// configuration then case name.
	Served map[string]map[string]int
}

// RealHarnessFailures fail a case that does not allow real harnesses when
// an agent of its run was not on the test harness: an agent the case's
// overrides do not reach (a child run without inherited overrides, an
// agent without a configId). The host refuses such an agent before it
// starts (Counts.Refused), even when the workflow catches the error; one
// that started a session on a real harness all the same (Counts.Harnesses)
// fails the case too.
func (c Case) RealHarnessFailures(counts Counts) []string {
	if c.AllowRealHarness {
		return nil
	}
	var out []string
	for _, agent := range slices.Sorted(maps.Keys(counts.Refused)) {
		out = append(out, fmt.Sprintf("agent %s was refused rather than run on a real harness: %s", agent, counts.Refused[agent]))
	}
	for _, agent := range slices.Sorted(maps.Keys(counts.Harnesses)) {
		out = append(out, fmt.Sprintf("agent %s ran on the %s harness, which the case's scripts do not reach "+
			"(a child run without createChild({overrides: \"inherit\"}), or an agent without a configId); "+
			"set allowRealHarness: true if it should", agent, counts.Harnesses[agent]))
	}
	return out
}

// Judge returns every way the observation differs from the expectations;
// none means the case passed.
func (e Expect) Judge(o Observed) []string {
	var out []string
	switch {
	case e.Error == "" && len(o.ErrorCodes) > 0:
		out = append(out, fmt.Sprintf("expected success, the run failed [%s]: %s", o.ErrorCodes[0], o.ErrorMessage))
	case e.Error != "" && len(o.ErrorCodes) == 0:
		out = append(out, fmt.Sprintf("expected the error %s, the run succeeded", e.Error))
	case e.Error != "" && !contains(o.ErrorCodes, e.Error):
		out = append(out, fmt.Sprintf("expected the error %s, got %v: %s", e.Error, o.ErrorCodes, o.ErrorMessage))
	}
	if len(e.Output) > 0 && len(o.ErrorCodes) == 0 && !sameJSON(e.Output, o.Output) {
		out = append(out, fmt.Sprintf("output: expected %s, got %s", compact(e.Output), compact(o.Output)))
	}
	if len(e.OutputIncludes) > 0 && len(o.ErrorCodes) == 0 {
		want, got := decode(e.OutputIncludes), decode(o.Output)
		if diff := includes("output", want, got); diff != "" {
			out = append(out, diff)
		}
	}
	for _, config := range slices.Sorted(maps.Keys(o.Served)) {
		if n := o.Served[config][Unscripted]; n > 0 {
			out = append(out, fmt.Sprintf("agent configuration %s is not scripted by the case: %d execute(s) refused rather than "+
				"run on its own harness; script it, or set allowRealHarness: true", config, n))
		}
	}
	for _, target := range slices.Sorted(maps.Keys(e.Calls)) {
		if got := o.Calls[target]; got != e.Calls[target] {
			out = append(out, fmt.Sprintf("calls of %s: expected %d, got %d", target, e.Calls[target], got))
		}
	}
	return out
}

// containsKey makes an object of outputIncludes a substring match: {"$contains":
// "text"} is included in a string that contains text. The "$" keeps it
// apart from an output field named contains.
const containsKey = "$contains"

// includes reports the first place where got does not include want.
func includes(path string, want, got any) string {
	switch w := want.(type) {
	case map[string]any:
		if sub, ok := w[containsKey]; ok {
			return includesText(path, w, sub, got)
		}
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: expected an object, got %s", path, show(got))
		}
		for _, k := range slices.Sorted(maps.Keys(w)) {
			v, present := g[k]
			if !present {
				return fmt.Sprintf("%s.%s: missing", path, k)
			}
			if diff := includes(path+"."+k, w[k], v); diff != "" {
				return diff
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: expected an array of %d, got %s", path, len(w), show(got))
		}
		for i := range w {
			if diff := includes(fmt.Sprintf("%s[%d]", path, i), w[i], g[i]); diff != "" {
				return diff
			}
		}
		return ""
	}
	if !reflect.DeepEqual(want, got) {
		return fmt.Sprintf("%s: expected %s, got %s", path, show(want), show(got))
	}
	return ""
}

// includesText reports whether got is a string that contains sub, the
// text of the {"$contains": sub} matcher m.
func includesText(path string, m map[string]any, sub, got any) string {
	text, ok := sub.(string)
	if !ok || len(m) != 1 {
		return fmt.Sprintf("%s: %s must be the only field of its object and a string, got %s", path, containsKey, show(m))
	}
	g, ok := got.(string)
	if !ok || !strings.Contains(g, text) {
		return fmt.Sprintf("%s: expected a string containing %s, got %s", path, show(text), show(got))
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

func decode(raw json.RawMessage) any {
	var v any
	_ = json.Unmarshal(raw, &v)
	return v
}

func sameJSON(a, b json.RawMessage) bool {
	return reflect.DeepEqual(decode(a), decode(b))
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

func show(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
