package host

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/harnesses"
)

// loader is a harness that continues sessions natively but may fail to
// (as an ACP agent's session/load): its sessions report, as
// adapter.ResumeReporter, that they did not resume when lost is set.
type loader struct {
	recall
	lost bool
}

func (l *loader) harnesses(o adapter.Options) []adapter.Harness {
	return append(harnesses.Builtin(o), adapter.Harness{Name: "recall", Title: "Loader",
		Capabilities: adapter.Capabilities{ResumesSessions: true},
		New: func(adapter.Spec, func(adapter.Event), adapter.Hooks) (adapter.Adapter, error) {
			return &loaderSession{recallSession{r: &l.recall}, l.lost}, nil
		}})
}

type loaderSession struct {
	recallSession
	lost bool
}

func (s *loaderSession) Resumed() (bool, string) {
	if s.lost {
		return false, "harness recall: session/load of s-1: no such session"
	}
	return true, ""
}

var _ adapter.ResumeReporter = (*loaderSession)(nil)

// A harness that may fail to continue a session keeps each prompt for the
// journal, though it continues sessions natively.
func TestPromptIsKeptForAHarnessThatMayFailToContinue(t *testing.T) {
	l := &loader{}
	f := startWith(t, recallAgent, defaults, l.harnesses)
	res, err := f.execute(call{agent: "a1", config: `{"configId":"rec"}`, prompt: `"plan the release"`})
	if err != nil {
		t.Fatal(err)
	}
	if res.Prompt == nil || *res.Prompt != "plan the release" {
		t.Fatalf("the result keeps prompt %q, want the prompt sent", deref(res.Prompt))
	}
}

// A resumed agent whose harness could not load its session goes on by
// transcript, and the event gives the harness's reason.
func TestAFailedLoadGoesOnByTranscript(t *testing.T) {
	l := &loader{lost: true}
	f := startWith(t, recallAgent, defaults, l.harnesses)
	c := &agentproto.Continuation{Session: agentproto.SessionRef{Harness: "recall", ID: "s-1"}, Calls: 1,
		Transcript: []agentproto.Exchange{{Call: 1, Prompt: "name a colour", Reply: "teal"}}}
	f.executeContinuing("a1", "now a number", c)
	d, ok := f.waitEvent(eventapi.TypeAgentSessionContinued).Details.(*eventapi.AgentSessionContinued)
	if !ok || d.Continued || !d.ByTranscript || d.Exchanges != 1 || !strings.Contains(d.Reason, "no such session") {
		t.Fatalf("agent.session.continued: %+v", d)
	}
	if sent := l.sent(); len(sent) != 1 || !strings.Contains(sent[0], "<earlier-conversation>") || !strings.Contains(sent[0], "teal") {
		t.Fatalf("the first prompt does not carry the exchange: %q", sent)
	}
}

// A resumed agent whose harness loaded its session continues it: no
// transcript is added to the prompt.
func TestALoadedSessionContinues(t *testing.T) {
	l := &loader{}
	f := startWith(t, recallAgent, defaults, l.harnesses)
	c := &agentproto.Continuation{Session: agentproto.SessionRef{Harness: "recall", ID: "s-1"}, Calls: 1,
		Transcript: []agentproto.Exchange{{Call: 1, Prompt: "name a colour", Reply: "teal"}}}
	f.executeContinuing("a1", "now a number", c)
	d, ok := f.waitEvent(eventapi.TypeAgentSessionContinued).Details.(*eventapi.AgentSessionContinued)
	if !ok || !d.Continued || d.ByTranscript {
		t.Fatalf("agent.session.continued: %+v", d)
	}
	if sent := l.sent(); len(sent) != 1 || sent[0] != "now a number" {
		t.Fatalf("prompts sent %q, want the prompt alone", sent)
	}
}

// A resumed agent whose conversation's state directory is gone (the run
// record that kept it was pruned) goes on in a new session, by transcript,
// and the event says why: it did not fail this resume and every later one.
func TestAConversationWhoseStateIsGoneGoesOnByTranscript(t *testing.T) {
	l := &loader{}
	f := startWith(t, recallAgent, defaults, l.harnesses)
	gone := filepath.Join(t.TempDir(), "pruned-run", "harness", "a1", "recall")
	c := &agentproto.Continuation{Session: agentproto.SessionRef{Harness: "recall", ID: "s-1", State: gone}, Calls: 1,
		Transcript: []agentproto.Exchange{{Call: 1, Prompt: "name a colour", Reply: "teal"}}}
	f.executeContinuing("a1", "now a number", c)
	d, ok := f.waitEvent(eventapi.TypeAgentSessionContinued).Details.(*eventapi.AgentSessionContinued)
	if !ok || d.Continued || !d.ByTranscript || !strings.Contains(d.Reason, gone) || !strings.Contains(d.Reason, "is gone") {
		t.Fatalf("agent.session.continued: %+v", d)
	}
	if sent := l.sent(); len(sent) != 1 || !strings.Contains(sent[0], "teal") {
		t.Fatalf("the first prompt does not carry the exchange: %q", sent)
	}
}
