package testscripts

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/stratoscli/stratos/shared/fakemcp"
	"github.com/stratoscli/stratos/shared/toolchain/toolchaintest"
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
//	mcpconformance server <urlfile> <baseline>
//	                              runs the server scenarios of the official MCP
//	                              conformance suite ($STRATOS_TEST_MCP_CONFORMANCE)
//	                              against the `stratos mcp serve --http` whose URL
//	                              urlfile holds, through a proxy on 127.0.0.1 that
//	                              adds the bearer $STRATOS_MCP_TOKEN (the suite
//	                              sends no header of ours); fails unless exactly
//	                              the scenarios the baseline file lists fail
//	mcptestpkg <VAR>              fails, naming what installs it, unless the MCP
//	                              test package $VAR (see setMCPTestPackages) is set
func TestMCP(t *testing.T) {
	node := toolchaintest.Ensure(t).Node
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
		setMCPTestPackages(env, node)
		return nil
	}
	p.Cmds["mcptestpkg"] = cmdMCPTestPackage
	p.Cmds["lastrun"] = cmdRunLastRun
	p.Cmds["jsonget"] = cmdRunJSONGet
	p.Cmds["pidgone"] = cmdRunPidGone
	p.Cmds["waitfile"] = cmdRunWaitFile
	p.Cmds["waitgrep"] = cmdFaultWaitGrep
	p.Cmds["signal"] = cmdFaultSignal
	p.Cmds["mcpconformance"] = func(ts *testscript.TestScript, neg bool, args []string) { cmdMCPConformance(ts, neg, args, node) }
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

// setMCPTestPackages gives a script the real MCP software
// scripts/prepare-test-cache installs: $STRATOS_TEST_MCP_EVERYTHING (the
// pinned @modelcontextprotocol/server-everything's entry point) and
// $STRATOS_TEST_MCP_CONFORMANCE (the pinned conformance suite's, whose
// node_modules hold the official TypeScript SDK), each when set, and
// $NODEBIN, the directory of the toolchain's node (the Node Stratos
// provisions, not whichever is first on PATH). A script that needs a
// package checks it with mcptestpkg, so an unset one fails it loudly.
func setMCPTestPackages(env *testscript.Env, node string) {
	for _, k := range []string{"STRATOS_TEST_MCP_EVERYTHING", "STRATOS_TEST_MCP_CONFORMANCE"} {
		if v := os.Getenv(k); v != "" {
			env.Setenv(k, v)
		}
	}
	env.Setenv("NODEBIN", filepath.Dir(node))
}

func cmdMCPTestPackage(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mcptestpkg <VAR>")
	}
	if ts.Getenv(args[0]) == "" {
		ts.Fatalf("%s is not set: run `eval \"$(scripts/prepare-test-cache)\"`, which installs the pinned MCP test packages (@modelcontextprotocol/server-everything, @modelcontextprotocol/conformance with the TypeScript SDK) and sets it", args[0])
	}
}

func cmdMCPConformance(ts *testscript.TestScript, neg bool, args []string, node string) {
	if neg {
		ts.Fatalf("unsupported: ! mcpconformance")
	}
	if len(args) != 3 || args[0] != "server" {
		ts.Fatalf("usage: mcpconformance server <urlfile> <baseline>")
	}
	suite := os.Getenv("STRATOS_TEST_MCP_CONFORMANCE")
	if suite == "" {
		ts.Fatalf("STRATOS_TEST_MCP_CONFORMANCE is not set: run `eval \"$(scripts/prepare-test-cache)\"`, which installs the pinned @modelcontextprotocol/conformance and sets it")
	}
	target, err := url.Parse(strings.TrimSpace(ts.ReadFile(args[1])))
	ts.Check(err)
	proxyURL := serveBearerProxy(ts, target, ts.Getenv("STRATOS_MCP_TOKEN"))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, suite, "server", "--url", proxyURL, "--suite", "all",
		"--expected-failures", ts.MkAbs(args[2]), "-o", ts.MkAbs("conformance-results"))
	cmd.Dir = ts.MkAbs(".")
	out, err := cmd.CombinedOutput()
	_, _ = ts.Stdout().Write(out)
	if err != nil {
		ts.Fatalf("the conformance suite's server scenarios: %v", err)
	}
}

// serveBearerProxy serves, on 127.0.0.1 for the rest of the script, a
// proxy to target that adds the bearer token to every request. A Host or
// Origin naming the proxy is sent on as the target's; any other (a
// scenario probing DNS rebinding) reaches the server as sent. A request's
// body is read whole before it is sent on: streamed through, a request
// now and then never reached the server in full and the suite waited out
// its 60-second timeout (seen only through this proxy, never with the
// body sent at once).
func serveBearerProxy(ts *testscript.TestScript, target *url.URL, token string) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	own := ln.Addr().String()
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			host := r.In.Host
			r.SetURL(target)
			r.Out.URL.Path = r.In.URL.Path
			r.Out.Host = host
			if host == own {
				r.Out.Host = target.Host
			}
			if r.In.Header.Get("Origin") == "http://"+own {
				r.Out.Header.Set("Origin", "http://"+target.Host)
			}
			r.Out.Header.Set("Authorization", "Bearer "+token)
		},
		FlushInterval: -1,
	}
	whole := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 16<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		proxy.ServeHTTP(w, r)
	})
	srv := &http.Server{Handler: whole, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	ts.Defer(func() { _ = srv.Close() })
	return "http://" + own + target.Path
}
