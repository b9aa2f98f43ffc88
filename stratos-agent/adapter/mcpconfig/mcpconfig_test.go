package mcpconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/mcpdecl"
)

func writeManifest(t *testing.T, yaml string) string {
	t.Helper()
	dir := t.TempDir()
	body := "name: w\nshortDescription: s\nlongDescription: l\n" + yaml
	if err := os.WriteFile(filepath.Join(dir, "workflow.yaml"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestOnlyTheSelectedServersInTheirOrder(t *testing.T) {
	dir := writeManifest(t, `mcp:
  servers:
    alpha: {command: /bin/alpha, args: [-v], env: {A: "1"}}
    beta: {type: http, url: "http://127.0.0.1:9/mcp", headers: {X: y}}
    gamma: {command: /bin/gamma}
`)
	got, err := FromWorkflow(dir, []string{"beta", "alpha"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "beta" || got[0].URL != "http://127.0.0.1:9/mcp" || got[0].Headers["X"] != "y" ||
		got[1].Name != "alpha" || got[1].Command != "/bin/alpha" || got[1].Args[0] != "-v" || got[1].Env["A"] != "1" {
		t.Fatalf("servers %+v", got)
	}
	if got[1].Cwd != "" {
		t.Errorf("alpha declares no cwd, got %q (the harness decides)", got[1].Cwd)
	}
	if none, err := FromWorkflow(dir, nil); err != nil || len(none) != 0 {
		t.Fatalf("no selection: %v %v", none, err)
	}
}

func TestUndeclaredOrIncompleteServersAreConfigurationErrors(t *testing.T) {
	dir := writeManifest(t, "mcp:\n  servers:\n    empty: {type: stdio}\n    wrong: {command: [a]}\n")
	for _, name := range []string{"missing", "empty", "wrong"} {
		t.Run(name, func(t *testing.T) {
			_, err := FromWorkflow(dir, []string{name})
			if agentproto.CodeOf(err) != agentproto.CodeConfiguration || !strings.Contains(err.Error(), "mcp.servers."+name) {
				t.Fatalf("error %v", err)
			}
		})
	}
}

func TestReferencesResolvedAndMissingVariableNamed(t *testing.T) {
	dir := writeManifest(t, `mcp:
  servers:
    gh: {url: "http://127.0.0.1:9/mcp", headers: {Authorization: "Bearer ${GH_TOKEN}"}}
    local: {command: "${SERVER_BIN}", cwd: tools}
`)
	env := map[string]string{"GH_TOKEN": "t0k"}
	lookup := func(n string) (string, bool) { v, ok := env[n]; return v, ok }
	got, err := Resolve(dir, []string{"gh"}, lookup, BearerHeader)
	if err != nil || got[0].Headers["Authorization"] != "Bearer t0k" || got[0].Type != "http" {
		t.Fatalf("gh: %+v %v", got, err)
	}
	_, err = Resolve(dir, []string{"local"}, lookup, BearerHeader)
	if agentproto.CodeOf(err) != agentproto.CodeConfiguration || !strings.Contains(err.Error(), "SERVER_BIN") ||
		!strings.Contains(err.Error(), "mcp.servers.local.command") {
		t.Fatalf("missing variable: %v", err)
	}
	env["SERVER_BIN"] = "/bin/srv"
	got, err = Resolve(dir, []string{"local"}, lookup, BearerHeader)
	if err != nil || got[0].Cwd != filepath.Join(dir, "tools") {
		t.Fatalf("local: %+v %v", got, err)
	}
}

func TestOAuthServersGoThroughTheOAuthHook(t *testing.T) {
	dir := writeManifest(t, `mcp:
  servers:
    tracker: {url: "http://127.0.0.1:9/mcp", oauth: true}
    plain: {url: "http://127.0.0.1:9/plain"}
`)
	var seen []string
	relay := func(workflow string, s mcpdecl.Server, out *Server) error {
		seen = append(seen, workflow+"/"+s.Name)
		out.URL = "http://127.0.0.1:1/relayed"
		return nil
	}
	got, err := Resolve(dir, []string{"tracker", "plain"}, func(string) (string, bool) { return "", false }, relay)
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || seen[0] != "w/tracker" || got[0].URL != "http://127.0.0.1:1/relayed" || got[1].URL != "http://127.0.0.1:9/plain" {
		t.Fatalf("seen %v, servers %+v", seen, got)
	}
}

func TestOAuthServerWithoutLoginIsAConfigurationErrorNamingTheLogin(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	dir := writeManifest(t, "mcp:\n  servers:\n    tracker: {url: \"http://127.0.0.1:9/mcp\", oauth: true}\n")
	_, err := FromWorkflow(dir, []string{"tracker"})
	if agentproto.CodeOf(err) != agentproto.CodeConfiguration || !strings.Contains(err.Error(), "run `stratos mcp login w tracker`") {
		t.Fatalf("error %v", err)
	}
}

// A harness starts a server in the agent's working directory, so the
// relative paths of the declaration reach it already made absolute against
// the workflow directory (mcpdecl's one rule), while a bare command stays
// a PATH lookup.
func TestRelativePathsReachTheHarnessAbsolute(t *testing.T) {
	dir := writeManifest(t, `mcp:
  servers:
    script: {command: ./bin/mcp.sh, args: [./conf.json, plain]}
    node: {command: node, args: [./server.mjs]}
`)
	got, err := FromWorkflow(dir, []string{"script", "node"})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Command != filepath.Join(dir, "bin", "mcp.sh") || got[0].Args[0] != filepath.Join(dir, "conf.json") || got[0].Args[1] != "plain" || got[0].Cwd != "" {
		t.Errorf("script: %+v", got[0])
	}
	if got[1].Command != "node" || got[1].Args[0] != filepath.Join(dir, "server.mjs") {
		t.Errorf("node: %+v", got[1])
	}
}
