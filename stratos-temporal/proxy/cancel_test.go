package proxy

import (
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
)

func TestToCancel(t *testing.T) {
	p := &Proxy{remote: map[string]*agent{
		"a": {running: "run-1/execute/x", call: 2},
		"b": {}, // remote, nothing running
	}}
	for _, c := range []struct {
		name   string
		cancel agentproto.CancelParams
		id     string
		remote bool
	}{
		{"the running call", agentproto.CancelParams{AgentID: "a", Call: 2}, "run-1/execute/x", true},
		{"whatever call runs", agentproto.CancelParams{AgentID: "a"}, "run-1/execute/x", true},
		{"a call that is not running", agentproto.CancelParams{AgentID: "a", Call: 1}, "", true},
		// The code's stratos run is gone: the code's next attempt attaches
		// to the execute, which must go on.
		{"orphaned", agentproto.CancelParams{AgentID: "a", Call: 2, Orphaned: true}, "", true},
		{"an idle remote agent", agentproto.CancelParams{AgentID: "b", Call: 1}, "", true},
		{"a local agent", agentproto.CancelParams{AgentID: "c", Call: 1}, "", false},
	} {
		id, remote := p.toCancel(c.cancel)
		if id != c.id || remote != c.remote {
			t.Errorf("%s: toCancel(%+v) = %q, %v; want %q, %v", c.name, c.cancel, id, remote, c.id, c.remote)
		}
	}
}
