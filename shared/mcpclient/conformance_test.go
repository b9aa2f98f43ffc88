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
	"gopkg.in/yaml.v3"

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
	suiteRun := func(args ...string) ([]byte, error) {
		args = append([]string{suite, "client", "--command", exe, "--timeout", "30000", "-o", t.TempDir()}, args...)
		cmd := exec.CommandContext(ctx, tc.Node, args...)
		cmd.Env = append(os.Environ(), conformanceClientEnv+"=1")
		cmd.Dir = t.TempDir()
		return cmd.CombinedOutput()
	}
	out, err := suiteRun("--suite", "all", "--expected-failures", baseline)
	if err == nil {
		t.Logf("%s", out)
		return
	}
	// The suite starts all 26 scenarios at once, and some of its checks are
	// timed (sse-retry fails a reconnect later than twice the server's
	// retry field): on a loaded two-core machine they fail for want of CPU.
	// A scenario that failed is run again alone, once; it must pass then.
	listed, lerr := baselineScenarios(baseline)
	if lerr != nil {
		t.Fatal(lerr)
	}
	unexpected := failedScenarios(string(out), listed)
	if len(unexpected) == 0 {
		t.Fatalf("the conformance suite's client scenarios: %v\n%s", err, out)
	}
	t.Logf("with all scenarios at once, these failed: %s; each runs again alone\n%s", strings.Join(unexpected, ", "), out)
	for _, name := range unexpected {
		alone, err := suiteRun("--scenario", name)
		if err != nil {
			t.Errorf("scenario %s failed again when run alone: %v\n%s", name, err, alone)
		}
	}
}

// baselineScenarios reads the scenario names listed in the baseline file.
func baselineScenarios(path string) (map[string]bool, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var b struct {
		Client []string `yaml:"client"`
	}
	if err := yaml.Unmarshal(raw, &b); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	names := map[string]bool{}
	for _, n := range b.Client {
		names[n] = true
	}
	return names, nil
}

// failedScenarios returns the scenarios the suite's summary marks failed
// ("✗ name: 8 passed, 2 failed") that the baseline does not list.
func failedScenarios(out string, listed map[string]bool) []string {
	var names []string
	for _, line := range strings.Split(out, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "✗ ")
		if !ok {
			continue
		}
		name, _, ok := strings.Cut(rest, ": ")
		if ok && !listed[name] {
			names = append(names, name)
		}
	}
	return names
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

// conformanceClientDocument is the client ID metadata document URL the
// suite's auth/basic-cimd scenario expects as client_id.
const conformanceClientDocument = "https://conformance-test.local/client-metadata.json"

// conformanceContext is what the suite gives a scenario that needs it.
type conformanceContext struct {
	ClientID         string `json:"client_id"`
	ClientSecret     string `json:"client_secret"`
	PrivateKeyPEM    string `json:"private_key_pem"`
	IdPClientID      string `json:"idp_client_id"`
	IdPIDToken       string `json:"idp_id_token"`
	IdPTokenEndpoint string `json:"idp_token_endpoint"`
}

func conformanceRun(ctx context.Context, scenario, url string) error {
	server := mcpdecl.Server{Name: "conformance", Transport: mcpdecl.TransportHTTP, URL: url}
	if strings.HasPrefix(scenario, "elicitation-") {
		// As workflow.yaml declares a server whose forms are to be
		// answered with their defaults (elicitation: accept-defaults).
		server.Elicitation = mcpdecl.ElicitationAcceptDefaults
	}
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
		switch {
		case strings.HasPrefix(scenario, "auth/client-credentials-"):
			// A machine client, as workflow.yaml declares it with
			// oauth.grant: client_credentials (and privateKey for JWT).
			server.OAuth.Grant = mcpdecl.GrantClientCredentials
			server.OAuth.PrivateKey = cc.PrivateKeyPEM
		case strings.HasPrefix(scenario, "auth/cross-app-access-"):
			// An enterprise user, as workflow.yaml declares it with
			// oauth.grant: cross_app_access and the identity provider
			// (the ID token from the environment).
			server.OAuth.Grant = mcpdecl.GrantCrossAppAccess
			server.OAuth.IdP = &mcpdecl.IdP{TokenURL: cc.IdPTokenEndpoint, ClientID: cc.IdPClientID, IDToken: cc.IdPIDToken}
		default:
			// A user's login, declared as by a user who publishes a
			// client ID metadata document (at the URL the suite
			// expects): used only where the authorization server
			// advertises support; elsewhere the login falls back to the
			// declared clientId or dynamic registration.
			server.OAuth.ClientMetadataURL = conformanceClientDocument
		}
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

func TestFailedScenariosSkipsPassedAndListed(t *testing.T) {
	out := "=== SUITE SUMMARY ===\n✓ initialize: 1 passed, 0 failed\n✗ sse-retry: 2 passed, 1 failed\n" +
		"✗ auth/basic-cimd: 14 passed, 0 failed, 1 warnings\n✗ auth/resource-mismatch: 2 passed, 1 failed\n"
	got := failedScenarios(out, map[string]bool{"auth/basic-cimd": true})
	if strings.Join(got, ",") != "sse-retry,auth/resource-mismatch" {
		t.Fatalf("failedScenarios = %q", got)
	}
}
