package tsgen

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite shared/sdk/src/agent-protocol.ts")

// tsFile is the SDK's view of the protocol, generated from agentproto.
const tsFile = "../../sdk/src/agent-protocol.ts"

// TestTypeScriptIsCurrent fails when the checked-in agent-protocol.ts is not
// what the Go types generate: run scripts/build-sdk (or this test with
// -update), and commit both src/ and dist/.
func TestTypeScriptIsCurrent(t *testing.T) {
	want, err := Generate("..")
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(tsFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(tsFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: the Go types of shared/agentproto changed; run scripts/build-sdk and commit shared/sdk/src and shared/sdk/dist", tsFile)
	}
}

func TestMethodKey(t *testing.T) {
	for method, want := range map[string]string{"initialize": "initialize", "agent.execute": "agentExecute", "hook.beforeToolCall": "hookBeforeToolCall"} {
		if got := methodKey(method); got != want {
			t.Errorf("methodKey(%q) = %q, want %q", method, got, want)
		}
	}
}
