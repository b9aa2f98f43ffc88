package discovery

import (
	"testing"

	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/manifest"
)

func TestStaleReason(t *testing.T) {
	wf := func(name, status, reason string, refs ...string) *Workflow {
		return &Workflow{Manifest: manifest.Manifest{Name: name}, Status: status, Reason: reason, Sources: freshness.Sources{References: refs}}
	}
	built := freshness.Built
	cases := []struct {
		name       string
		workflows  []*Workflow
		sdkCurrent bool
		want       string
	}{
		{"built and current", []*Workflow{wf("w", built, "")}, true, ""},
		{"never built, whatever the SDK", []*Workflow{wf("w", freshness.NotBuilt, freshness.ReasonNeverBuilt)}, false, freshness.ReasonNeverBuilt},
		{"own reason before a required one", []*Workflow{
			wf("w", freshness.NotBuilt, freshness.ReasonSourcesChanged, "c"), wf("c", freshness.NotBuilt, freshness.ReasonNeverBuilt),
		}, true, freshness.ReasonSourcesChanged},
		{"a required workflow, named", []*Workflow{
			wf("w", built, "", "c"), wf("c", built, "", "g"), wf("g", freshness.NotBuilt, freshness.ReasonNeverBuilt),
		}, true, "g: never-built"},
		{"the SDK last", []*Workflow{wf("w", built, "", "c"), wf("c", built, "")}, false, freshness.ReasonSDKNotCurrent},
		{"a missing reference", []*Workflow{wf("w", built, "", "ghost")}, true, freshness.ReasonMissingReference},
		{"a cycle of built workflows ends", []*Workflow{wf("w", built, "", "c"), wf("c", built, "", "w")}, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &Root{Workflows: map[string]*Workflow{}}
			for _, w := range c.workflows {
				r.Workflows[w.Manifest.Name] = w
			}
			if got := r.StaleReason(c.workflows[0], c.sdkCurrent); got != c.want {
				t.Errorf("StaleReason = %q, want %q", got, c.want)
			}
		})
	}
}
