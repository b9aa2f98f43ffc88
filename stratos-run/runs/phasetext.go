package runs

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
)

// WritePhases writes a run's agents for people, a section per phase in
// the order of its first execute, agents of no phase under "(no phase)":
// each agent's name, workflow, last status, executes (and how many
// failed), time busy and first start (local time).
func WritePhases(w io.Writer, groups []PhaseGroup) {
	if len(groups) == 0 {
		return
	}
	fmt.Fprintln(w, "agents    by phase, in order of first start")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, g := range groups {
		name := "phase " + g.Phase
		if g.Phase == "" {
			name = "(no phase)"
		}
		fmt.Fprintf(tw, "  %s\n", name)
		for _, a := range g.Agents {
			fmt.Fprintf(tw, "    %s\t%s\t%s\t%s\t%s\tstarted %s%s\n", agentName(a), a.Workflow, a.Status, executesText(a),
				(time.Duration(a.BusyMs) * time.Millisecond).Round(100*time.Millisecond), localClock(a.StartedAt), conversationText(a.Conversation)+planText(a.Plan))
		}
	}
	tw.Flush()
}

// agentName is the agent's name as its executes gave it, else its ID's
// last segment.
func agentName(a PhaseAgent) string {
	if a.Name != "" {
		return a.Name
	}
	return lastSegment(a.AgentID)
}

// conversationText says, after a tab, how a resumed agent went on with
// its replayed executes' conversation; "" for any other agent.
func conversationText(c *eventapi.AgentSessionContinued) string {
	switch {
	case c == nil:
		return ""
	case c.Continued:
		return fmt.Sprintf("\tconversation continued (%d replayed execute(s))", c.Calls)
	case c.ByTranscript:
		return fmt.Sprintf("\tconversation continued by transcript, not natively: a new session's first prompt carried %d exchange(s), %d left out", c.Exchanges, c.Omitted)
	}
	return "\tconversation not continued: " + c.Reason
}

// planText says, after a tab, how far the agent's last plan went
// (planSummary); "" without a plan.
func planText(p *eventapi.PlanUpdated) string {
	if s := planSummary(p); s != "" {
		return "\tplan " + s
	}
	return ""
}

// planSummary is how far a plan went: how many of its steps are
// completed, and the step in progress (else the next one not completed);
// "" for an empty plan.
func planSummary(p *eventapi.PlanUpdated) string {
	if p == nil || len(p.Entries) == 0 {
		return ""
	}
	done, now := 0, ""
	for _, e := range p.Entries {
		switch {
		case e.Status == "completed":
			done++
		case e.Status == "in_progress" && now == "":
			now = "now: " + e.Content
		}
	}
	if now == "" {
		for _, e := range p.Entries {
			if e.Status != "completed" {
				now = "next: " + e.Content
				break
			}
		}
	}
	text := fmt.Sprintf("%d of %d done", done, len(p.Entries))
	if now != "" {
		text += ", " + oneLine(now, maxValueText)
	}
	return text
}

func executesText(a PhaseAgent) string {
	text := fmt.Sprintf("%d execute(s)", a.Executes)
	if a.Failed > 0 {
		text += fmt.Sprintf(", %d failed", a.Failed)
	}
	return text
}

// localClock is the local time of day of an RFC 3339 timestamp, as show
// writes the run's start; the timestamp itself when it does not parse.
func localClock(ts string) string {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return ts
	}
	return t.Local().Format("15:04:05")
}
