package claudecode

import (
	"slices"
	"testing"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

func TestSystemPromptPartsAddTheWorktreeContext(t *testing.T) {
	ctx := "You are working in a git worktree managed by Stratos.\n"
	for _, c := range []struct {
		spec adapter.Spec
		want []string
	}{
		{adapter.Spec{}, []string{""}}, // as the TS SDK: an empty custom prompt
		{adapter.Spec{SystemPrompt: "Be brief."}, []string{"Be brief."}},
		{adapter.Spec{SystemPrompt: "Be brief.", HarnessContext: ctx}, []string{"Be brief.", ctx}},
		{adapter.Spec{HarnessContext: ctx}, []string{ctx}},
	} {
		if got := systemPromptParts(c.spec); !slices.Equal(got, c.want) {
			t.Errorf("%+v: got %q, want %q", c.spec, got, c.want)
		}
	}
}
