package discovery

import "github.com/stratoscli/stratos/shared/freshness"

// StaleReason returns why w cannot be used as it is built, "" when it can.
// It is the one answer every tool logs and reports, in order of cause: w's
// own reason (never-built before anything else), then the first workflow w
// requires that is missing or not built ("child: never-built"), then an
// SDK in the root that is not this Stratos's (sdkCurrent false).
func (r *Root) StaleReason(w *Workflow, sdkCurrent bool) string {
	if w.Status != freshness.Built {
		return w.Reason
	}
	if reason := r.requiredReason(w, map[*Workflow]bool{w: true}); reason != "" {
		return reason
	}
	if !sdkCurrent {
		return freshness.ReasonSDKNotCurrent
	}
	return ""
}

// requiredReason returns the reason of the first workflow that w requires,
// directly or not, which is missing or not built, prefixed with its name.
func (r *Root) requiredReason(w *Workflow, seen map[*Workflow]bool) string {
	for _, name := range w.Sources.References {
		c, ok := r.Workflows[name]
		switch {
		case !ok:
			return freshness.ReasonMissingReference
		case seen[c]:
			continue
		case c.Status != freshness.Built:
			return c.Manifest.Name + ": " + c.Reason
		}
		seen[c] = true
		if reason := r.requiredReason(c, seen); reason != "" {
			return reason
		}
	}
	return ""
}
