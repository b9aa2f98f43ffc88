package protogen

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite shared/sdk/src/agent-protocol.ts")

// root is the repository's root, from this package's directory.
const root = "../../.."

// TestTypeScriptIsCurrent fails when the checked-in agent-protocol.ts is not
// what the Go types generate: run scripts/gen-docs (or this test with
// -update), then scripts/build-sdk, and commit both src/ and dist/.
func TestTypeScriptIsCurrent(t *testing.T) {
	files, err := Files(root)
	if err != nil {
		t.Fatal(err)
	}
	want := files[Path]
	full := filepath.Join(root, Path)
	if *update {
		if err := os.WriteFile(full, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: the Go types of shared/agentproto changed; run scripts/gen-docs and scripts/build-sdk, and commit shared/sdk/src and shared/sdk/dist", Path)
	}
}

func TestMethodKey(t *testing.T) {
	for method, want := range map[string]string{"initialize": "initialize", "agent.execute": "agentExecute", "hook.beforeToolCall": "hookBeforeToolCall"} {
		if got := methodKey(method); got != want {
			t.Errorf("methodKey(%q) = %q, want %q", method, got, want)
		}
	}
}
