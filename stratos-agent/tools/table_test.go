package tools

import (
	"regexp"
	"slices"
	"testing"
)

func TestTableNamesAreUniqueAndSorted(t *testing.T) {
	seen := map[string]bool{}
	var names []string
	for _, tool := range Table() {
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
	snake := regexp.MustCompile(`^[a-z]+(_[a-z]+)*$`)
	specific := map[Harness][]string{}
	var canonical []string
	for _, tool := range Table() {
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
	wantCanonical := []string{"edit", "glob", "grep", "question", "read", "shell", "skill", "subagent",
		"todo", "web_fetch", "web_search", "write"}
	if !slices.Equal(canonical, wantCanonical) {
		t.Errorf("canonical names = %v, want %v", canonical, wantCanonical)
	}
	want := map[Harness][]string{
		ClaudeCode: {"Artifact", "CronCreate", "CronDelete", "CronList", "EnterWorktree", "ExitWorktree",
			"Monitor", "NotebookEdit", "RemoteTrigger", "ReportFindings", "ScheduleWakeup", "SendFeedback",
			"ShareOnboardingGuide", "TaskStop", "Workflow"},
		Codex: {"agent_message_board", "code_mode", "current_time_reminder", "deferred_executor", "goals",
			"image_generation", "memories", "request_permissions_tool", "sleep_tool", "token_budget",
			"tool_suggest", "view_image"},
		OpenCode: {"codesearch"},
	}
	for h, names := range want {
		if !slices.Equal(specific[h], names) {
			t.Errorf("%s specific names = %v, want %v", h, specific[h], names)
		}
	}
}

func TestTableCannotBeChangedByCallers(t *testing.T) {
	a := Table()
	a[0].In[ClaudeCode] = Mapping{Native: []string{"Changed"}}
	a[0].Name = "changed"
	b := Table()
	if b[0].Name == "changed" || slices.Contains(b[0].In[ClaudeCode].Native, "Changed") {
		t.Fatal("Table returned shared state")
	}
}

func TestParseHarness(t *testing.T) {
	for _, h := range Harnesses() {
		got, err := ParseHarness(string(h))
		if err != nil || got != h {
			t.Errorf("ParseHarness(%q) = %q, %v", h, got, err)
		}
	}
	if _, err := ParseHarness("claude"); err == nil {
		t.Error("ParseHarness(claude) succeeded")
	}
}

func TestListShowsAlwaysOnSeparately(t *testing.T) {
	l := List(Harnesses()...)
	if len(l.Harnesses) != 3 {
		t.Fatalf("got %d harnesses", len(l.Harnesses))
	}
	byHarness := map[string]HarnessListing{}
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

func names(ts []ListedTool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}
