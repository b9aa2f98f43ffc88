package command

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
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
