package command

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/agentapi"
	"github.com/stratoscli/stratos/shared/fakemcp"
	"github.com/stratoscli/stratos/shared/fakeoauth"
)

// cancelAtURL cancels the login once it has printed the authorization URL:
// a person pressing Ctrl-C instead of opening it.
type cancelAtURL struct {
	mu     sync.Mutex
	buf    strings.Builder
	cancel context.CancelFunc
}

func (c *cancelAtURL) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.Write(p)
	if strings.Contains(c.buf.String(), "/authorize?") {
		c.cancel()
	}
	return len(p), nil
}

func TestLoginInterruptedExits130AndStoresNothing(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serveCtx, stop := context.WithCancel(context.Background())
	defer stop()
	url := fakemcp.Serve(serveCtx, ln, fakemcp.Options{OAuth: &fakeoauth.Options{}})
	home, project := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	dir := filepath.Join(project, ".stratos", "workflows", "demo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := "name: demo\nshortDescription: s\nlongDescription: l\nmcp:\n  servers:\n    tracker: {url: \"" + url + "\", oauth: true}\n"
	if err := os.WriteFile(filepath.Join(dir, "workflow.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(project)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout bytes.Buffer
	stderr := &cancelAtURL{cancel: cancel}
	code := cliapp.RunContext(ctx, newCommand(), []string{"stratos-agent", "mcp", "login", "demo", "tracker", "--json"},
		cliapp.IO{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: stderr})
	if code != clierr.ExitInterrupted || !strings.Contains(stdout.String(), `"code":"interrupted"`) {
		t.Fatalf("exit %d, stdout %s", code, stdout.String())
	}
	if files, _ := filepath.Glob(filepath.Join(home, ".stratos", "mcp-auth", "*.json")); len(files) != 0 {
		t.Errorf("an interrupted login stored %v", files)
	}
}

// workflowOAuth, the prelude login, logout and status share, resolves the
// workflow's servers declared with oauth (all, or the one named, which
// must have oauth) and the store under the home.
func TestWorkflowOAuthResolvesTheServersAndTheStore(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	dir := filepath.Join(project, ".stratos", "workflows", "demo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := "name: demo\nshortDescription: s\nlongDescription: l\nmcp:\n  servers:\n" +
		"    tracker: {url: \"http://127.0.0.1:9/mcp\", oauth: true}\n    plain: {url: \"http://127.0.0.1:9/plain\"}\n"
	if err := os.WriteFile(filepath.Join(dir, "workflow.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(project)
	scopeOf := func(args ...string) (oauthScope, error) {
		var scope oauthScope
		var err error
		cmd := &cli.Command{Name: "prelude", Action: func(_ context.Context, c *cli.Command) error {
			scope, err = workflowOAuth(c)
			return nil
		}}
		if runErr := cmd.Run(context.Background(), append([]string{"prelude"}, args...)); runErr != nil {
			t.Fatal(runErr)
		}
		return scope, err
	}
	scope, err := scopeOf("demo")
	if err != nil {
		t.Fatal(err)
	}
	if scope.workflow != "demo" || len(scope.targets) != 1 || scope.targets[0].server.Name != "tracker" {
		t.Errorf("scope = %+v, want workflow demo with its one oauth server, tracker", scope)
	}
	if want := filepath.Join(home, ".stratos", "mcp-auth"); scope.store.Dir() != want {
		t.Errorf("store in %s, want %s", scope.store.Dir(), want)
	}
	for server, code := range map[string]string{"plain": agentapi.CodeMCPNotOAuth, "nosuch": agentapi.CodeMCPServerUnknown} {
		_, err := scopeOf("demo", server)
		var ce *clierr.Error
		if !errors.As(err, &ce) || ce.Code != code {
			t.Errorf("server %s: %v, want %s", server, err, code)
		}
	}
}
