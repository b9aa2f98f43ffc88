package testscripts

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/stratoscli/stratos/shared/fakemcp"
	"github.com/stratoscli/stratos/shared/fakeoauth"
)

// scriptEnvKey holds the names of the variables a script's environment
// has (Setup's and those script commands set), so a command this file
// starts itself gets the script's environment.
type scriptEnvKey struct{}

type scriptEnv struct {
	mu   sync.Mutex
	keys []string
}

func (e *scriptEnv) add(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.keys = append(e.keys, key)
}

func (e *scriptEnv) environ(ts *testscript.TestScript) []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]string, 0, len(e.keys))
	for _, k := range e.keys {
		out = append(out, k+"="+ts.Getenv(k))
	}
	return out
}

// recordScriptEnv notes the names of env's variables, for commands that
// start a process with the script's environment (scriptEnv.environ).
func recordScriptEnv(env *testscript.Env) {
	se := &scriptEnv{}
	for _, kv := range env.Vars {
		if k, _, ok := strings.Cut(kv, "="); ok {
			se.add(k)
		}
	}
	env.Values[scriptEnvKey{}] = se
}

// withOAuth adds the OAuth commands to p:
//
//	fakeoauth [-token-lifetime D] [-refreshed-lifetime D] [-no-refresh] [-no-registration] [-client-secret S] VAR
//	    serve the test MCP server as streamable HTTP guarded by the fake
//	    authorization server (shared/fakeoauth) for the rest of the
//	    script; set $VAR to its URL; its request log (no tokens) is
//	    $WORK/oauth.log
//	mcplogin [NAME=VALUE...] [args...]
//	    run `stratos mcp login args...` (with the variables given added to
//	    the script's environment) as a person would: read the
//	    authorization URL it prints on stderr, visit it with an HTTP
//	    client (the fake approves at once and redirects to the loopback
//	    listener) and wait for the command to end; its stdout and stderr
//	    become the command's
func withOAuth(p testscript.Params) testscript.Params {
	setup := p.Setup
	p.Setup = func(env *testscript.Env) error {
		if setup != nil {
			if err := setup(env); err != nil {
				return err
			}
		}
		recordScriptEnv(env)
		return nil
	}
	if p.Cmds == nil {
		p.Cmds = map[string]func(*testscript.TestScript, bool, []string){}
	}
	p.Cmds["fakeoauth"] = cmdFakeOAuth
	p.Cmds["mcplogin"] = cmdMCPLogin
	return p
}

func cmdFakeOAuth(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! fakeoauth")
	}
	var o fakeoauth.Options
	for len(args) > 1 {
		var err error
		switch args[0] {
		case "-token-lifetime":
			o.TokenLifetime, err = time.ParseDuration(args[1])
			args = args[1:]
		case "-refreshed-lifetime":
			o.RefreshedLifetime, err = time.ParseDuration(args[1])
			args = args[1:]
		case "-no-refresh":
			o.NoRefresh = true
		case "-no-registration":
			o.NoRegistration = true
		case "-client-secret":
			o.ClientSecret = args[1]
			args = args[1:]
		default:
			ts.Fatalf("fakeoauth: unknown flag %s", args[0])
		}
		ts.Check(err)
		args = args[1:]
	}
	if len(args) != 1 {
		ts.Fatalf("usage: fakeoauth [-token-lifetime D] [-refreshed-lifetime D] [-no-refresh] [-no-registration] [-client-secret S] VAR")
	}
	log, err := os.OpenFile(ts.MkAbs("oauth.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	ts.Check(err)
	ts.Defer(func() { log.Close() })
	o.Log = log
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	ctx, cancel := context.WithCancel(context.Background())
	ts.Defer(cancel)
	ts.Setenv(args[0], fakemcp.Serve(ctx, ln, fakemcp.Options{OAuth: &o}))
	ts.Value(scriptEnvKey{}).(*scriptEnv).add(args[0])
}

var authorizeURL = regexp.MustCompile(`http://127\.0\.0\.1:\d+/authorize\?\S+`)

func cmdMCPLogin(ts *testscript.TestScript, neg bool, args []string) {
	stratos, err := exec.LookPath(filepath.Join(firstPathDir(ts), "stratos"))
	ts.Check(err)
	env := ts.Value(scriptEnvKey{}).(*scriptEnv).environ(ts)
	for len(args) > 0 && strings.Contains(args[0], "=") {
		env, args = append(env, args[0]), args[1:]
	}
	cmd := exec.Command(stratos, append([]string{"mcp", "login"}, args...)...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = env
	var stdout strings.Builder
	cmd.Stdout = &stdout
	errPipe, err := cmd.StderrPipe()
	ts.Check(err)
	ts.Check(cmd.Start())
	var stderr strings.Builder
	visited := make(chan error, 1)
	scan := bufio.NewScanner(errPipe)
	sent := false
	for scan.Scan() {
		line := scan.Text()
		stderr.WriteString(line + "\n")
		if u := authorizeURL.FindString(line); u != "" && !sent {
			sent = true
			go func() { visited <- visit(u) }()
		}
	}
	_, _ = io.Copy(io.Discard, errPipe)
	runErr := cmd.Wait()
	if sent {
		if err := <-visited; err != nil {
			ts.Logf("visiting the authorization URL: %v", err)
		}
	}
	fmt.Fprint(ts.Stdout(), stdout.String())
	fmt.Fprint(ts.Stderr(), stderr.String())
	switch {
	case runErr != nil && !neg:
		ts.Fatalf("stratos mcp login: %v", runErr)
	case runErr == nil && neg:
		ts.Fatalf("stratos mcp login succeeded unexpectedly")
	}
}

// visit plays the browser: the fake approves at once and redirects to the
// login's loopback listener, which the client follows.
func visit(u string) error {
	resp, err := http.Get(u)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s", resp.Status)
	}
	return nil
}

// firstPathDir is the directory testscript installed the tools in.
func firstPathDir(ts *testscript.TestScript) string {
	dir, _, _ := strings.Cut(ts.Getenv("PATH"), string(os.PathListSeparator))
	return dir
}
