package testscripts

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/stratoscli/stratos/shared/toolchain/toolchaintest"
)

// TestMCPServe runs testdata/mcpserve: `stratos mcp serve` driven by the Go
// SDK's MCP client (mcpdrive, see internal/mcpdrive) over stdio and
// streamable HTTP, with the modern and the legacy protocol, and line by
// line by a client that may send anything (mcpstdio, see cmdMCPStdio), and
// by the official TypeScript SDK's client (ts_sdk_client; mcptestpkg and
// $NODEBIN as in TestMCP, see setMCPTestPackages).
// mcpserve-gone waits until no process of the script's servers (their
// environment holds the script's HOME) is left, naming the survivors.
func TestMCPServe(t *testing.T) {
	node := toolchaintest.Ensure(t).Node
	p := params(t, "mcpserve")
	setup := p.Setup
	p.Setup = func(env *testscript.Env) error {
		if err := setup(env); err != nil {
			return err
		}
		defer recordScriptEnv(env)
		// The workflows' zod comes from the warm npm cache, as in TestRun.
		env.Setenv("npm_config_prefer_offline", "true")
		if v := os.Getenv("NODE_EXTRA_CA_CERTS"); v != "" {
			env.Setenv("NODE_EXTRA_CA_CERTS", v)
		}
		setMCPTestPackages(env, node)
		return nil
	}
	p.Cmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"mcptestpkg": cmdMCPTestPackage,
		"lastrun":    cmdRunLastRun,
		"jsonget":    cmdRunJSONGet,
		"waitfor":    cmdWaitFile,
		"mcpstdio":   cmdMCPStdio,
		// The script's HOME is its own: every process a server of the
		// script started, and theirs, inherit it.
		"mcpserve-gone": cmdGone("mcpserve-gone", "HOME"),
	}
	testscript.Run(t, p)
}

// TestSkill runs testdata/skill: `stratos skill install` and `show`.
func TestSkill(t *testing.T) {
	testscript.Run(t, params(t, "skill"))
}
