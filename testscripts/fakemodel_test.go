package testscripts

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/stratoscli/stratos/shared/fakemodel"
)

// TestFakeModel exercises the fake model server end to end through the
// script commands that harness conformance scripts use.
func TestFakeModel(t *testing.T) { testscript.Run(t, withFakeModel(params(t, "fakemodel"))) }

// withFakeModel adds the fake-model commands to p (for any area whose
// scripts drive a harness against the fake):
//
//	fakemodel start <script.json> <addrfile> <logfile>
//	    start a fake on 127.0.0.1 for the rest of the script; write its base
//	    URL to addrfile, set $FAKEMODEL_URL to it, log requests to logfile
//	    (JSON Lines, rewritten after every request); a script with an
//	    ollama inventory also sets $OLLAMA_HOST to it. With "!", expect the
//	    script to be rejected and print why on stderr.
//	fakemodel stop
//	    stop it (the log is then final); fails if scripted turns were never
//	    used, naming them
//	fakemodel log <logfile>
//	    print the log as a summary, one fact per line (for stdout/cmp)
//	httpget <url>
//	httppost [-H name:value]... <url> <bodyfile>
//	    loopback-only HTTP; print "HTTP <status>", the response headers
//	    (lower-case, sorted, without date and content-length), a blank
//	    line and the body (plus a newline if it lacks one). A non-2xx
//	    status is not a command failure.
func withFakeModel(p testscript.Params) testscript.Params {
	setup := p.Setup
	p.Setup = func(env *testscript.Env) error {
		env.Values[fakeModelKey{}] = &fakeModelState{}
		if setup != nil {
			return setup(env)
		}
		return nil
	}
	if p.Cmds == nil {
		p.Cmds = map[string]func(*testscript.TestScript, bool, []string){}
	}
	p.Cmds["fakemodel"] = cmdFakeModel
	p.Cmds["httpget"] = cmdHTTPGet
	p.Cmds["httppost"] = cmdHTTPPost
	return p
}

type fakeModelKey struct{}

// fakeModelState is the one fake a script may run.
type fakeModelState struct {
	srv *fakemodel.Server
}

func cmdFakeModel(ts *testscript.TestScript, neg bool, args []string) {
	st, _ := ts.Value(fakeModelKey{}).(*fakeModelState)
	if st == nil {
		ts.Fatalf("fakemodel: the test's Params were not set up with withFakeModel")
	}
	if len(args) == 0 {
		ts.Fatalf("usage: fakemodel start|stop|pull|log …")
	}
	switch args[0] {
	case "start":
		if len(args) != 4 {
			ts.Fatalf("usage: fakemodel start <script.json> <addrfile> <logfile>")
		}
		if st.srv != nil {
			ts.Fatalf("fakemodel: already running at %s", st.srv.URL)
		}
		srv, err := startFakeModel(ts.MkAbs(args[1]), ts.MkAbs(args[3]))
		if neg {
			// "! fakemodel start" checks that a script is rejected.
			if err == nil {
				srv.Close()
				ts.Fatalf("fakemodel: script %s was accepted", args[1])
			}
			fmt.Fprintln(ts.Stderr(), err)
			return
		}
		ts.Check(err)
		st.srv = srv
		ts.Defer(func() { srv.Close() })
		ts.Check(os.WriteFile(ts.MkAbs(args[2]), []byte(srv.URL+"\n"), 0o644))
		ts.Setenv("FAKEMODEL_URL", srv.URL)
		if srv.IsOllama() {
			ts.Setenv("OLLAMA_HOST", srv.URL)
		}
	case "stop":
		if len(args) != 1 {
			ts.Fatalf("usage: fakemodel stop")
		}
		if st.srv == nil {
			ts.Fatalf("fakemodel: not running")
		}
		srv := st.srv
		st.srv = nil
		ts.Check(srv.Close())
		unused := srv.UnusedTurns()
		switch {
		case len(unused) > 0 && !neg:
			ts.Fatalf("fakemodel: scripted turns never used: %v", unused)
		case len(unused) == 0 && neg:
			ts.Fatalf("fakemodel: every scripted turn was used")
		case len(unused) > 0:
			fmt.Fprintf(ts.Stdout(), "unused turns: %v\n", unused)
		}
	case "pull":
		if neg || len(args) != 2 {
			ts.Fatalf("usage: fakemodel pull <model:tag>")
		}
		if st.srv == nil {
			ts.Fatalf("fakemodel: not running")
		}
		ts.Check(st.srv.PullOllama(args[1]))
	case "log":
		if neg || len(args) != 2 {
			ts.Fatalf("usage: fakemodel log <logfile>")
		}
		entries, err := fakemodel.ReadLogFile(ts.MkAbs(args[1]))
		ts.Check(err)
		ts.Check(fakemodel.WriteSummary(ts.Stdout(), entries))
	default:
		ts.Fatalf("fakemodel: unknown subcommand %q (start, stop, pull, log)", args[0])
	}
}

func startFakeModel(scriptPath, logPath string) (*fakemodel.Server, error) {
	script, err := fakemodel.LoadScript(scriptPath)
	if err != nil {
		return nil, err
	}
	return fakemodel.Start(script, fakemodel.Options{LogFile: logPath})
}

func cmdHTTPGet(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: httpget <url>")
	}
	req, err := http.NewRequest(http.MethodGet, args[0], nil)
	ts.Check(err)
	doLoopback(ts, req)
}

func cmdHTTPPost(ts *testscript.TestScript, neg bool, args []string) {
	headers := http.Header{}
	for len(args) >= 2 && args[0] == "-H" {
		name, value, ok := strings.Cut(args[1], ":")
		if !ok {
			ts.Fatalf("httppost: -H wants name:value, got %q", args[1])
		}
		headers.Add(strings.TrimSpace(name), strings.TrimSpace(value))
		args = args[2:]
	}
	if neg || len(args) != 2 {
		ts.Fatalf("usage: httppost [-H name:value]... <url> <bodyfile>")
	}
	body, err := os.ReadFile(ts.MkAbs(args[1]))
	ts.Check(err)
	req, err := http.NewRequest(http.MethodPost, args[0], bytes.NewReader(body))
	ts.Check(err)
	req.Header = headers
	if req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	doLoopback(ts, req)
}

// doLoopback sends req, which must target a loopback address, and prints
// the response.
func doLoopback(ts *testscript.TestScript, req *http.Request) {
	if !isLoopback(req.URL) {
		ts.Fatalf("refusing a non-loopback URL: %s", req.URL)
	}
	resp, err := http.DefaultClient.Do(req)
	ts.Check(err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	ts.Check(err)
	var names []string
	for k := range resp.Header {
		if k != "Date" && k != "Content-Length" {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	out := ts.Stdout()
	fmt.Fprintf(out, "HTTP %d\n", resp.StatusCode)
	for _, k := range names {
		fmt.Fprintf(out, "%s: %s\n", strings.ToLower(k), strings.Join(resp.Header[k], ", "))
	}
	fmt.Fprintf(out, "\n%s", body)
	if len(body) > 0 && body[len(body)-1] != '\n' {
		fmt.Fprintln(out)
	}
}

func isLoopback(u *url.URL) bool {
	if u.Hostname() == "localhost" {
		return true
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsLoopback()
}
