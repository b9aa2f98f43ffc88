package testscripts

import (
	"context"
	"net"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/stratoscli/stratos/shared/fakemcp"
)

// TestMCP covers MCP in workflows: declarations, `stratos mcp`, wrappers
// and direct clients, against the test server (shared/fakemcp). Besides
// fakemcp (see withFakeMCP), scripts have:
//
//	lastrun                       sets $RUN to the newest run's directory
//	jsonget <file> <path> <json>  the value at path in the JSON file equals json
//	pidgone <pidfile>             waits until the process in pidfile is gone
//	waitfile <path>               waits until path exists
//	waitgrep <path> <regexp>      waits until path exists and matches regexp
//	signal <SIG> <pidfile>        sends INT, TERM or KILL to the process in pidfile
func TestMCP(t *testing.T) {
	p := withOAuth(withFakeMCP(params(t, "mcp")))
	setup := p.Setup
	p.Setup = func(env *testscript.Env) error {
		if err := setup(env); err != nil {
			return err
		}
		// Workflow builds install zod from the warm npm cache (as TestRun).
		env.Setenv("npm_config_prefer_offline", "true")
		if v := os.Getenv("NODE_EXTRA_CA_CERTS"); v != "" {
			env.Setenv("NODE_EXTRA_CA_CERTS", v)
		}
		return nil
	}
	p.Cmds["lastrun"] = cmdRunLastRun
	p.Cmds["jsonget"] = cmdRunJSONGet
	p.Cmds["pidgone"] = cmdRunPidGone
	p.Cmds["waitfile"] = cmdRunWaitFile
	p.Cmds["waitgrep"] = cmdFaultWaitGrep
	p.Cmds["signal"] = cmdFaultSignal
	testscript.Run(t, p)
}

// withFakeMCP adds the fake MCP server commands to p:
//
//	fakemcp [-legacy] VAR
//	    serve the test server as streamable HTTP on 127.0.0.1 for the rest
//	    of the script and set $VAR to its URL; -legacy speaks only the
//	    initialize-era protocol
//
// Stdio servers are the stratos-fakemcp program on PATH (see TestMain).
func withFakeMCP(p testscript.Params) testscript.Params {
	if p.Cmds == nil {
		p.Cmds = map[string]func(*testscript.TestScript, bool, []string){}
	}
	p.Cmds["fakemcp"] = cmdFakeMCP
	return p
}

func cmdFakeMCP(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! fakemcp")
	}
	var o fakemcp.Options
	if len(args) > 0 && args[0] == "-legacy" {
		o.Legacy, args = true, args[1:]
	}
	if len(args) != 1 {
		ts.Fatalf("usage: fakemcp [-legacy] VAR")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	ctx, cancel := context.WithCancel(context.Background())
	ts.Defer(cancel)
	ts.Setenv(args[0], fakemcp.Serve(ctx, ln, o))
}
