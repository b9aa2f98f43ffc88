package harnesses_test

// The built-in harnesses' tool declarations, read through the registry's
// table: what `stratos tools list` prints and the adapters pass on.

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/harnesses"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

const (
	ClaudeCode tools.Harness = "claude-code"
	Codex      tools.Harness = "codex"
	OpenCode   tools.Harness = "opencode"
	Qwen       tools.Harness = "qwen"
)

// builtinTable is the table of the built-in harnesses.
func builtinTable(t *testing.T) *tools.Table {
	t.Helper()
	reg, err := harnesses.New(harnesses.Builtin(adapter.Options{})...)
	if err != nil {
		t.Fatal(err)
	}
	return reg.Tools()
}

func TestValidateUnknownNameNamesFieldAndValue(t *testing.T) {
	table := builtinTable(t)
	cases := []struct {
		sel        tools.Selection
		field      string
		name       string
		suggestion string
	}{
		{tools.Selection{AllowedTools: []string{"read", "raed"}}, "allowedTools", "raed", ""},
		{tools.Selection{DisallowedTools: []string{"Bash"}}, "disallowedTools", "Bash", "shell"},
		{tools.Selection{DisallowedTools: []string{"Read"}}, "disallowedTools", "Read", "read"},
		{tools.Selection{AllowedTools: []string{"websearch"}}, "allowedTools", "websearch", "web_search"},
		{tools.Selection{AllowedTools: []string{"shell_tool"}}, "allowedTools", "shell_tool", "shell"},
		{tools.Selection{AllowedTools: []string{"apply_patch"}}, "allowedTools", "apply_patch", ""},
		{tools.Selection{DisallowedTools: []string{"notebookedit"}}, "disallowedTools", "notebookedit", "NotebookEdit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := table.Validate(c.sel)
			var ue *tools.UnknownToolError
			if !errors.As(err, &ue) {
				t.Errorf("%+v: err = %v, want *UnknownToolError", c.sel, err)
				return
			}
			if ue.Field != c.field || ue.Name != c.name || ue.Suggestion != c.suggestion {
				t.Errorf("%+v: got %+v", c.sel, ue)
			}
			if !errors.Is(err, tools.ErrInvalidSelection) {
				t.Errorf("%v does not wrap ErrInvalidSelection", err)
			}
			if !strings.Contains(err.Error(), c.field) || !strings.Contains(err.Error(), `"`+c.name+`"`) {
				t.Errorf("message %q does not name field and value", err)
			}
		})
	}
}

func TestValidateAcceptsEveryHarnessesNames(t *testing.T) {
	table := builtinTable(t)
	sel := tools.Selection{AllowedTools: []string{"read", "NotebookEdit", "view_image", "codesearch", "edit"},
		DisallowedTools: []string{"shell", "Monitor"}}
	if err := table.Validate(sel); err != nil {
		t.Fatal(err)
	}
}

func TestRemoved(t *testing.T) {
	table := builtinTable(t)
	cases := []struct {
		name string
		h    tools.Harness
		sel  tools.Selection
		want []string
	}{
		{"omitted keeps defaults", ClaudeCode, tools.Selection{}, nil},
		{"disallowed only", ClaudeCode, tools.Selection{DisallowedTools: []string{"shell", "web_search", "NotebookEdit"}},
			[]string{"NotebookEdit", "shell", "web_search"}},
		{"other harness's name ignored", ClaudeCode, tools.Selection{DisallowedTools: []string{"view_image", "codesearch"}}, nil},
		{"canonical the harness lacks ignored", Codex, tools.Selection{DisallowedTools: []string{"read", "glob"}}, nil},
		{"always-on ignored in disallowed", Codex, tools.Selection{DisallowedTools: []string{"edit", "write"}}, nil},
		{"allowed removes the rest", OpenCode, tools.Selection{AllowedTools: []string{"read", "glob", "grep"}},
			[]string{"codesearch", "edit", "question", "shell", "skill", "subagent", "todo", "web_fetch", "web_search", "write"}},
		{"in both lists is removed", OpenCode, tools.Selection{AllowedTools: []string{"read", "glob", "edit", "write"},
			DisallowedTools: []string{"glob"}},
			[]string{"codesearch", "glob", "grep", "question", "shell", "skill", "subagent", "todo", "web_fetch", "web_search"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := table.Removed(c.h, c.sel)
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
				return
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("%s: Removed = %v, want %v", c.name, got, c.want)
			}
		})
	}
}

func TestEmptyAllowedRemovesEveryRemovableTool(t *testing.T) {
	table := builtinTable(t)
	for _, h := range table.Harnesses() {
		got, err := table.Removed(h, tools.Selection{AllowedTools: []string{}})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, lt := range table.List(h).Harnesses[0].Tools {
			want = append(want, lt.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: table.Removed(allowed=[]) = %v, want %v", h, got, want)
		}
	}
	// Always-on tools stay: Codex keeps edit and write through apply_patch.
	got, _ := table.Removed(Codex, tools.Selection{AllowedTools: []string{}})
	if slices.Contains(got, "edit") || slices.Contains(got, "write") {
		t.Errorf("codex removed always-on tools: %v", got)
	}
}

func TestRemovedRejectsUnknownHarnessAndName(t *testing.T) {
	table := builtinTable(t)
	if _, err := table.Removed("claude", tools.Selection{}); err == nil {
		t.Error("unknown harness accepted")
	}
	if _, err := table.Removed(ClaudeCode, tools.Selection{AllowedTools: []string{"nope"}}); !errors.Is(err, tools.ErrInvalidSelection) {
		t.Errorf("unknown name: err = %v", err)
	}
}

func TestOpenCodeEditAndWriteGoTogether(t *testing.T) {
	table := builtinTable(t)
	for _, sel := range []tools.Selection{
		{DisallowedTools: []string{"write"}},
		{AllowedTools: []string{"read", "edit"}},
	} {
		_, err := table.Natives(OpenCode, sel)
		var pe *tools.PairedToolsError
		if !errors.As(err, &pe) || !errors.Is(err, tools.ErrInvalidSelection) {
			t.Errorf("%+v: err = %v, want *PairedToolsError", sel, err)
			continue
		}
		if pe.Removed != "write" || pe.Kept != "edit" {
			t.Errorf("%+v: got %+v", sel, pe)
		}
	}
	if _, err := table.Natives(OpenCode, tools.Selection{DisallowedTools: []string{"edit"}}); err == nil {
		t.Error("removing edit alone accepted")
	}
	// The same split is fine for the other harnesses.
	if _, err := table.Natives(ClaudeCode, tools.Selection{DisallowedTools: []string{"write"}}); err != nil {
		t.Error(err)
	}
	got, err := table.Natives(OpenCode, tools.Selection{DisallowedTools: []string{"edit", "write", "shell", "NotebookEdit"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{"bash", "edit"}) {
		t.Errorf("denied = %v", got)
	}
}

func TestClaudeDisallowedTools(t *testing.T) {
	table := builtinTable(t)
	got, err := table.Natives(ClaudeCode, tools.Selection{DisallowedTools: []string{"shell", "web_search", "NotebookEdit", "view_image"}})
	if err != nil {
		t.Fatal(err)
	}
	// Removing Bash makes Claude Code add Glob and Grep; they are kept.
	if want := []string{"Bash", "NotebookEdit", "WebSearch"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	// allowedTools without glob/grep removes them as well as Bash.
	got, err = table.Natives(ClaudeCode, tools.Selection{AllowedTools: []string{"read", "edit", "write"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"Bash", "Glob", "Grep", "Agent", "Task", "Monitor", "WebFetch", "TodoWrite", "TaskCreate"} {
		if !slices.Contains(got, n) {
			t.Errorf("%s missing from %v", n, got)
		}
	}
	for _, n := range []string{"Read", "Edit", "Write"} {
		if slices.Contains(got, n) {
			t.Errorf("allowed %s is in %v", n, got)
		}
	}
	if !slices.IsSorted(got) {
		t.Errorf("not sorted: %v", got)
	}
}

func TestCodexConfigOverrides(t *testing.T) {
	table := builtinTable(t)
	got, err := table.Natives(Codex, tools.Selection{DisallowedTools: []string{"shell", "web_search", "view_image", "edit", "read"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"features.shell_tool=false", "features.unified_exec=false", "features.view_image=false",
		`web_search="disabled"`}
	if !slices.Equal(got, want) {
		t.Errorf("overrides = %v, want %v", got, want)
	}
	none, err := table.Natives(Codex, tools.Selection{})
	if err != nil || len(none) != 0 {
		t.Errorf("omitted selection: %v, %v", none, err)
	}
}

func TestTableNamesAreUniqueAndSorted(t *testing.T) {
	table := builtinTable(t)
	seen := map[string]bool{}
	var names []string
	for _, tool := range table.Tools() {
		if seen[tool.Name] {
			t.Errorf("name %q appears twice", tool.Name)
		}
		seen[tool.Name] = true
		names = append(names, tool.Name)
		if len(tool.In) == 0 {
			t.Errorf("%s: no harness provides it", tool.Name)
		}
		for h, m := range tool.In {
			if len(m.Native) == 0 {
				t.Errorf("%s/%s: no native name", tool.Name, h)
			}
		}
	}
	if !slices.IsSorted(names) {
		t.Errorf("table not sorted: %v", names)
	}
}

// Canonical names are lower snake_case; harness-specific names are exactly
// the documented lists (docs/tools.md), spelled as the harness spells them.
func TestCanonicalAndHarnessSpecificNames(t *testing.T) {
	table := builtinTable(t)
	snake := regexp.MustCompile(`^[a-z]+(_[a-z]+)*$`)
	specific := map[tools.Harness][]string{}
	var canonical []string
	for _, tool := range table.Tools() {
		if tool.Canonical() {
			canonical = append(canonical, tool.Name)
			if !snake.MatchString(tool.Name) {
				t.Errorf("canonical name %q is not snake_case", tool.Name)
			}
			continue
		}
		for h := range tool.In {
			specific[h] = append(specific[h], tool.Name)
		}
	}
	wantCanonical := []string{"edit", "glob", "grep", "question", "read", "save_memory", "shell", "skill", "subagent",
		"todo", "web_fetch", "web_search", "write"}
	if !slices.Equal(canonical, wantCanonical) {
		t.Errorf("canonical names = %v, want %v", canonical, wantCanonical)
	}
	want := map[tools.Harness][]string{
		ClaudeCode: {"Artifact", "CronCreate", "CronDelete", "CronList", "EnterWorktree", "ExitWorktree",
			"Monitor", "NotebookEdit", "RemoteTrigger", "ReportFindings", "ScheduleWakeup", "SendFeedback",
			"ShareOnboardingGuide", "TaskStop", "Workflow"},
		Codex: {"agent_message_board", "code_mode", "current_time_reminder", "deferred_executor", "goals",
			"image_generation", "memories", "request_permissions_tool", "sleep_tool", "token_budget",
			"tool_suggest", "view_image"},
		OpenCode: {"codesearch"},
		Qwen:     {"enter_plan_mode", "exit_plan_mode", "get_goal", "notebook_edit", "update_goal"},
	}
	for h, names := range want {
		if !slices.Equal(specific[h], names) {
			t.Errorf("%s specific names = %v, want %v", h, specific[h], names)
		}
	}
}

func TestTableCannotBeChangedByCallers(t *testing.T) {
	table := builtinTable(t)
	a := table.Tools()
	a[0].In[ClaudeCode] = tools.Mapping{Native: []string{"Changed"}}
	a[0].Name = "changed"
	b := table.Tools()
	if b[0].Name == "changed" || slices.Contains(b[0].In[ClaudeCode].Native, "Changed") {
		t.Fatal("tools.Table returned shared state")
	}
}

func TestHarnessLookup(t *testing.T) {
	table := builtinTable(t)
	for _, h := range table.Harnesses() {
		got, err := table.Harness(string(h))
		if err != nil || got.Harness != h {
			t.Errorf("Harness(%q) = %q, %v", h, got.Harness, err)
		}
	}
	_, err := table.Harness("claude")
	if err == nil || !strings.Contains(err.Error(), "known: acp, claude-code, codex, gemini, opencode") {
		t.Errorf("Harness(claude): %v", err)
	}
}

func TestListShowsAlwaysOnSeparately(t *testing.T) {
	table := builtinTable(t)
	l := table.List(table.Harnesses()...)
	if len(l.Harnesses) != 6 {
		t.Fatalf("got %d harnesses", len(l.Harnesses))
	}
	byHarness := map[string]tools.HarnessListing{}
	for _, hl := range l.Harnesses {
		byHarness[hl.Harness] = hl
	}
	codex := byHarness["codex"]
	if got := names(codex.AlwaysOn); !slices.Equal(got, []string{"edit", "write"}) {
		t.Errorf("codex alwaysOn = %v", got)
	}
	if got := names(codex.Tools); slices.Contains(got, "edit") || slices.Contains(got, "read") {
		t.Errorf("codex tools = %v: must not list always-on edit or read (codex has no read tool)", got)
	}
	for _, lt := range codex.Tools {
		if lt.Name == "web_search" && !slices.Equal(lt.Native, []string{`web_search="disabled"`}) {
			t.Errorf("codex web_search native = %v", lt.Native)
		}
		if lt.Name == "view_image" && (lt.Canonical || !slices.Equal(lt.Native, []string{"features.view_image=false"})) {
			t.Errorf("codex view_image = %+v", lt)
		}
	}
	claude := byHarness["claude-code"]
	if len(claude.AlwaysOn) != 0 {
		t.Errorf("claude alwaysOn = %v", claude.AlwaysOn)
	}
	for _, lt := range claude.Tools {
		if lt.Name == "shell" && (!lt.Canonical || !slices.Equal(lt.Native, []string{"Bash"})) {
			t.Errorf("claude shell = %+v", lt)
		}
	}
	for _, hl := range l.Harnesses {
		if !slices.IsSorted(names(hl.Tools)) || !slices.IsSorted(names(hl.AlwaysOn)) {
			t.Errorf("%s: lists not sorted", hl.Harness)
		}
		if hl.Removal == "" {
			t.Errorf("%s: no removal mechanism", hl.Harness)
		}
	}
}

func names(ts []tools.ListedTool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}
