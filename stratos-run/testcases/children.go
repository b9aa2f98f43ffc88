package testcases

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Declared are the agent configurations a case's run may script: its
// workflow's own (workflow.yaml's agents section) and, by workflow name,
// those of the workflows it runs as children, theirs included.
type Declared struct {
	Own      map[string]any
	Children map[string]map[string]any
}

// All is every configuration the run's overrides may target: the
// workflow's own, and its children's that it does not declare itself.
func (d Declared) All() map[string]any {
	all := maps.Clone(d.Own)
	if all == nil {
		all = map[string]any{}
	}
	for _, name := range slices.Sorted(maps.Keys(d.Children)) {
		for id, config := range d.Children[name] {
			if _, taken := all[id]; !taken {
				all[id] = config
			}
		}
	}
	return all
}

// overrideKey is the key of the run's overrides that scripts target:
// the target itself, or for "child/configId[#label]" configId[#label],
// which reaches the child through the overrides it inherits from its
// parent (createChild({overrides: "inherit"})).
func (d Declared) overrideKey(target string) (string, error) {
	child, key, ok := strings.Cut(target, "/")
	if !ok {
		return target, nil
	}
	agents, known := d.Children[child]
	if !known {
		return "", fmt.Errorf("scripts.%s: %q is no workflow this one runs as a child (children: %s)",
			target, child, strings.Join(slices.Sorted(maps.Keys(d.Children)), ", "))
	}
	id, _, _ := strings.Cut(key, "#")
	if _, ok := agents[id]; !ok {
		return "", fmt.Errorf("scripts.%s: workflow %q declares no agent configuration %s (known: %s)",
			target, child, id, strings.Join(slices.Sorted(maps.Keys(agents)), ", "))
	}
	if _, own := d.Own[id]; own {
		return "", fmt.Errorf("scripts.%s: this workflow declares %s too, and its script reaches the child by inheritance: script %s",
			target, id, key)
	}
	return key, nil
}

// scriptsKey is the case's scripts target that a run overrides key came
// from: the key itself, or the "child/key" that named it.
func (c Case) scriptsKey(key string) string {
	if _, ok := c.Scripts[key]; ok {
		return key
	}
	for _, t := range slices.Sorted(maps.Keys(c.Scripts)) {
		if strings.HasSuffix(t, "/"+key) {
			return t
		}
	}
	return key
}
