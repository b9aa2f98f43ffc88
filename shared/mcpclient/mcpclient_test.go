package mcpclient

import (
	"context"
	"net"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/fakemcp"
	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// The test binary doubles as the stdio server: with STRATOS_FAKEMCP set it
// runs fakemcp instead of the tests.
func TestMain(m *testing.M) {
	if os.Getenv("STRATOS_FAKEMCP") != "" {
		args := []string{"stratos-fakemcp"}
		if os.Getenv("STRATOS_FAKEMCP") == "legacy" {
			args = append(args, "--legacy")
		}
		os.Exit(fakemcp.Main(args, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func httpServer(t *testing.T, legacy bool) mcpdecl.Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	url := fakemcp.Serve(ctx, ln, fakemcp.Options{Legacy: legacy})
	return mcpdecl.Server{Name: "fake", Transport: mcpdecl.TransportHTTP, URL: url}
}

func stdioServer(t *testing.T, mode string) mcpdecl.Server {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return mcpdecl.Server{Name: "fake", Transport: mcpdecl.TransportStdio, Command: exe,
		Env: map[string]string{"STRATOS_FAKEMCP": mode}, Cwd: t.TempDir()}
}

func TestConnectNegotiatesModernAndLegacy(t *testing.T) {
	cases := []struct {
		name    string
		server  func(t *testing.T) mcpdecl.Server
		version string
	}{
		{"http-modern", func(t *testing.T) mcpdecl.Server { return httpServer(t, false) }, "2026-07-28"},
		{"http-legacy", func(t *testing.T) mcpdecl.Server { return httpServer(t, true) }, "2025-11-25"},
		{"stdio-modern", func(t *testing.T) mcpdecl.Server { return stdioServer(t, "modern") }, "2026-07-28"},
		{"stdio-legacy", func(t *testing.T) mcpdecl.Server { return stdioServer(t, "legacy") }, "2025-11-25"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			client, err := Connect(context.Background(), c.server(t), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer client.Close()
			if got := client.ProtocolVersion(); got != c.version {
				t.Errorf("protocol %s, want %s", got, c.version)
			}
			tools, err := client.Tools(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range tools {
				names = append(names, tool.Name)
			}
			if got := strings.Join(names, ","); got != "add,echo,fail,search-issues,slow" {
				t.Errorf("tools %s", got)
			}
			res, err := client.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: "add", Arguments: map[string]any{"a": 2, "b": 3}})
			if err != nil {
				t.Fatal(err)
			}
			if sc, _ := res.StructuredContent.(map[string]any); sc["sum"] != 5.0 {
				t.Errorf("add: %#v", res.StructuredContent)
			}
		})
	}
}

func TestConcurrentCallsAndProgress(t *testing.T) {
	var mu sync.Mutex
	var progress []string
	client, err := Connect(context.Background(), httpServer(t, false), Options{Progress: func(p *mcp.ProgressNotificationParams) {
		mu.Lock()
		progress = append(progress, p.Message)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() {
			params := &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{"millis": 50, "steps": 2}}
			params.SetProgressToken("p")
			_, err := client.Session.CallTool(context.Background(), params)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(progress) != 8 {
		t.Errorf("progress notifications %v, want 8", progress)
	}
}

func TestFailedStartNamesTheServer(t *testing.T) {
	s := mcpdecl.Server{Name: "ghost", Transport: mcpdecl.TransportStdio, Command: "/nonexistent/mcp-server"}
	_, err := Connect(context.Background(), s, Options{})
	if err == nil || !strings.Contains(err.Error(), `"ghost"`) {
		t.Fatalf("err = %v", err)
	}
}
