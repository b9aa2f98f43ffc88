package host

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/harnesses"
)

// tasks is a harness that starts, reports on and ends background work as
// its prompts say: "start k1 k2", "tick k1", "end k1", words apart.
func tasks(o adapter.Options) []adapter.Harness {
	return append(harnesses.Builtin(o), adapter.Harness{Name: "tasks", Title: "Tasks",
		Capabilities: adapter.Capabilities{BackgroundWork: true},
		New: func(_ adapter.Spec, emit func(adapter.Event), _ adapter.Hooks) (adapter.Adapter, error) {
			return &tasksSession{emit: emit}, nil
		}})
}

type tasksSession struct{ emit func(adapter.Event) }

var _ adapter.Adapter = (*tasksSession)(nil)

func (s *tasksSession) Initialize(context.Context) error { return nil }
func (s *tasksSession) Cancel()                          {}
func (s *tasksSession) Close(context.Context) error      { return nil }

func (s *tasksSession) Execute(_ context.Context, prompt string) (adapter.Result, error) {
	words := strings.Fields(prompt)
	var verb string
	for _, w := range words {
		var d eventapi.Details
		switch w {
		case "start", "tick", "end":
			verb = w
			continue
		}
		switch verb {
		case "start":
			d = &eventapi.BackgroundStarted{TaskType: "command"}
		case "tick":
			d = &eventapi.BackgroundActivity{Status: "running"}
		case "end":
			d = &eventapi.BackgroundCompleted{Status: eventapi.StatusCompleted}
		}
		s.emit(adapter.NewEvent(eventapi.IDs{TaskID: w}, d))
	}
	return adapter.Result{Text: "ok"}, nil
}

const tasksAgent = `  worker:
    harness: tasks
    model: tasks/one
`

// Events of background work belong to the execute that started it, even
// when they arrive during a later one; work still running when the agent
// closes is recorded as incomplete, reconstructed, before agent.closed.
func TestBackgroundWorkBelongsToTheCallThatStartedIt(t *testing.T) {
	f := startWith(t, tasksAgent, defaults, tasks)
	for _, prompt := range []string{"start k1 k2", "tick k1 end k1 start k3", "end k3"} {
		f.text(call{agent: "a", config: `{"configId":"worker"}`, prompt: `"` + prompt + `"`})
	}
	f.closeIn()
	b, err := os.ReadFile(filepath.Join(f.runDir, EventsFileName))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for sc := bufio.NewScanner(strings.NewReader(string(b))); sc.Scan(); {
		if err := eventapi.Check(sc.Bytes()); err != nil {
			t.Errorf("recorded %s: %v", sc.Bytes(), err)
		}
		e, err := eventapi.Decode(sc.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		switch d := e.Details.(type) {
		case *eventapi.BackgroundStarted, *eventapi.BackgroundActivity:
			got = append(got, e.Type+" "+e.IDs.TaskID+" "+e.IDs.InvocationID)
		case *eventapi.BackgroundCompleted:
			line := e.Type + " " + e.IDs.TaskID + " " + e.IDs.InvocationID + " " + d.Status
			if e.Reconstructed {
				line += " reconstructed"
			}
			got = append(got, line)
		case *eventapi.AgentClosed:
			got = append(got, e.Type)
		}
	}
	want := []string{
		"background.started k1 a/1", "background.started k2 a/1",
		"background.activity k1 a/1", "background.completed k1 a/1 completed", "background.started k3 a/2",
		"background.completed k3 a/2 completed",
		"background.completed k2 a/1 incomplete reconstructed",
		"agent.closed",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
