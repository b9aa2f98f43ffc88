package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/mcpauth"
	"github.com/stratoscli/stratos/shared/mcpdecl"
	"github.com/stratoscli/stratos/shared/toolchain/toolchaintest"
)

// conformanceClientEnv makes the test binary the client under test (see
// conformanceClient).
const conformanceClientEnv = "STRATOS_MCP_CONFORMANCE_CLIENT"

// TestConformanceClient runs every client scenario of the official MCP
// conformance suite (@modelcontextprotocol/conformance, pinned and
// installed by scripts/prepare-test-cache, $STRATOS_TEST_MCP_CONFORMANCE)
// against this package's client, mcpauth's login and their refresh and
// step-up, as Stratos uses them. The scenarios we do not pass are listed,
// each with its reason, in testdata/conformance-client-baseline.yml: the
// suite fails on a scenario that fails and is not listed, and on one that
// is listed and passes, so the list cannot go stale.
func TestConformanceClient(t *testing.T) {
	suite := os.Getenv("STRATOS_TEST_MCP_CONFORMANCE")
	if suite == "" {
		t.Fatal("STRATOS_TEST_MCP_CONFORMANCE is not set: run `eval \"$(scripts/prepare-test-cache)\"`, which installs the pinned @modelcontextprotocol/conformance and sets it")
	}
	tc := toolchaintest.Ensure(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	baseline, err := filepath.Abs(filepath.Join("testdata", "conformance-client-baseline.yml"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tc.Node, suite, "client", "--command", exe, "--suite", "all",
		"--expected-failures", baseline, "--timeout", "30000", "-o", t.TempDir())
	cmd.Env = append(os.Environ(), conformanceClientEnv+"=1")
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the conformance suite's client scenarios: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

// conformanceClient is the client the suite runs with a scenario's server
// URL: it logs in as `stratos mcp login` does when the server asks for
// OAuth (the suite's authorization server approves at once, so following
// the redirect plays the browser), connects, lists the tools and calls
// each, as workflow code would. It exits 0 when every step worked.
func conformanceClient(url string, stderr io.Writer) int {
	scenario := os.Getenv("MCP_CONFORMANCE_SCENARIO")
	if err := conformanceRun(context.Background(), scenario, url); err != nil {
		fmt.Fprintf(stderr, "scenario %s: %v\n", scenario, err)
		return 1
	}
	return 0
}

// conformanceContext is what the suite gives a scenario that needs it.
type conformanceContext struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
}

func conformanceRun(ctx context.Context, scenario, url string) error {
	server := mcpdecl.Server{Name: "conformance", Transport: mcpdecl.TransportHTTP, URL: url}
	home, err := os.MkdirTemp("", "stratos-conformance-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(home)
	store := mcpauth.Open(home)
	login := func(ctx context.Context, s mcpdecl.Server) error {
		_, err := mcpauth.Login(ctx, store, s, mcpauth.LoginOptions{Visit: followRedirects})
		return err
	}
	tokens := mcpauth.Tokens{Store: store, StepUp: login}
	if strings.HasPrefix(scenario, "auth/") {
		server.OAuth = &mcpdecl.OAuth{}
		var cc conformanceContext
		if raw := os.Getenv("MCP_CONFORMANCE_CONTEXT"); raw != "" {
			if err := json.Unmarshal([]byte(raw), &cc); err != nil {
				return fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
			}
		}
		server.OAuth.ClientID, server.OAuth.ClientSecret = cc.ClientID, cc.ClientSecret
		if err := login(ctx, server); err != nil {
			return fmt.Errorf("login: %w", err)
		}
	}
	c, err := Connect(ctx, server, Options{Tokens: &tokens, Workflow: "conformance"})
	if err != nil {
		return err
	}
	defer c.Close()
	tools, err := c.Tools(ctx)
	if err != nil {
		return err
	}
	for _, tool := range tools {
		args := map[string]any{}
		if tool.Name == "add_numbers" {
			args = map[string]any{"a": 5, "b": 3}
		}
		if _, err := c.Session.CallTool(ctx, &mcp.CallToolParams{Name: tool.Name, Arguments: args}); err != nil {
			return fmt.Errorf("call %s: %w", tool.Name, err)
		}
	}
	return nil
}

// followRedirects plays the browser for an authorization server that
// approves at once: it fetches the authorization URL and follows its
// redirect to the login's loopback listener.
func followRedirects(authURL string) error {
	resp, err := http.Get(authURL)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the authorization redirect answered %s", resp.Status)
	}
	return nil
}
