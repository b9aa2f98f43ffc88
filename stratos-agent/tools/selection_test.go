package tools

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestValidateUnknownNameNamesFieldAndValue(t *testing.T) {
	cases := []struct {
		sel        Selection
		field      string
		name       string
		suggestion string
	}{
		{Selection{AllowedTools: []string{"read", "raed"}}, "allowedTools", "raed", ""},
		{Selection{DisallowedTools: []string{"Bash"}}, "disallowedTools", "Bash", "shell"},
		{Selection{DisallowedTools: []string{"Read"}}, "disallowedTools", "Read", "read"},
		{Selection{AllowedTools: []string{"websearch"}}, "allowedTools", "websearch", "web_search"},
		{Selection{AllowedTools: []string{"shell_tool"}}, "allowedTools", "shell_tool", "shell"},
		{Selection{AllowedTools: []string{"apply_patch"}}, "allowedTools", "apply_patch", ""},
		{Selection{DisallowedTools: []string{"notebookedit"}}, "disallowedTools", "notebookedit", "NotebookEdit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Validate(c.sel)
			var ue *UnknownToolError
			if !errors.As(err, &ue) {
				t.Errorf("%+v: err = %v, want *UnknownToolError", c.sel, err)
				return
			}
			if ue.Field != c.field || ue.Name != c.name || ue.Suggestion != c.suggestion {
				t.Errorf("%+v: got %+v", c.sel, ue)
			}
			if !errors.Is(err, ErrInvalidSelection) {
				t.Errorf("%v does not wrap ErrInvalidSelection", err)
			}
			if !strings.Contains(err.Error(), c.field) || !strings.Contains(err.Error(), `"`+c.name+`"`) {
				t.Errorf("message %q does not name field and value", err)
			}
		})
	}
}

func TestValidateAcceptsEveryHarnessesNames(t *testing.T) {
	sel := Selection{AllowedTools: []string{"read", "NotebookEdit", "view_image", "codesearch", "edit"},
		DisallowedTools: []string{"shell", "Monitor"}}
	if err := Validate(sel); err != nil {
		t.Fatal(err)
	}
}

func TestRemoved(t *testing.T) {
	cases := []struct {
		name string
		h    Harness
		sel  Selection
		want []string
	}{
		{"omitted keeps defaults", ClaudeCode, Selection{}, nil},
		{"disallowed only", ClaudeCode, Selection{DisallowedTools: []string{"shell", "web_search", "NotebookEdit"}},
			[]string{"NotebookEdit", "shell", "web_search"}},
		{"other harness's name ignored", ClaudeCode, Selection{DisallowedTools: []string{"view_image", "codesearch"}}, nil},
		{"canonical the harness lacks ignored", Codex, Selection{DisallowedTools: []string{"read", "glob"}}, nil},
		{"always-on ignored in disallowed", Codex, Selection{DisallowedTools: []string{"edit", "write"}}, nil},
		{"allowed removes the rest", OpenCode, Selection{AllowedTools: []string{"read", "glob", "grep"}},
			[]string{"codesearch", "edit", "question", "shell", "skill", "subagent", "todo", "web_fetch", "web_search", "write"}},
		{"in both lists is removed", OpenCode, Selection{AllowedTools: []string{"read", "glob", "edit", "write"},
			DisallowedTools: []string{"glob"}},
			[]string{"codesearch", "glob", "grep", "question", "shell", "skill", "subagent", "todo", "web_fetch", "web_search"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Removed(c.h, c.sel)
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
	for _, h := range Harnesses() {
		got, err := Removed(h, Selection{AllowedTools: []string{}})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, lt := range List(h).Harnesses[0].Tools {
			want = append(want, lt.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: Removed(allowed=[]) = %v, want %v", h, got, want)
		}
	}
	// Always-on tools stay: Codex keeps edit and write through apply_patch.
	got, _ := Removed(Codex, Selection{AllowedTools: []string{}})
	if slices.Contains(got, "edit") || slices.Contains(got, "write") {
		t.Errorf("codex removed always-on tools: %v", got)
	}
}

func TestRemovedRejectsUnknownHarnessAndName(t *testing.T) {
	if _, err := Removed("claude", Selection{}); err == nil {
		t.Error("unknown harness accepted")
	}
	if _, err := Removed(ClaudeCode, Selection{AllowedTools: []string{"nope"}}); !errors.Is(err, ErrInvalidSelection) {
		t.Errorf("unknown name: err = %v", err)
	}
}

func TestOpenCodeEditAndWriteGoTogether(t *testing.T) {
	for _, sel := range []Selection{
		{DisallowedTools: []string{"write"}},
		{AllowedTools: []string{"read", "edit"}},
	} {
		_, err := OpenCodeDeniedPermissions(sel)
		var pe *PairedToolsError
		if !errors.As(err, &pe) || !errors.Is(err, ErrInvalidSelection) {
			t.Errorf("%+v: err = %v, want *PairedToolsError", sel, err)
			continue
		}
		if pe.Removed != "write" || pe.Kept != "edit" {
			t.Errorf("%+v: got %+v", sel, pe)
		}
	}
	if _, err := OpenCodeDeniedPermissions(Selection{DisallowedTools: []string{"edit"}}); err == nil {
		t.Error("removing edit alone accepted")
	}
	// The same split is fine for the other harnesses.
	if _, err := ClaudeDisallowedTools(Selection{DisallowedTools: []string{"write"}}); err != nil {
		t.Error(err)
	}
	got, err := OpenCodeDeniedPermissions(Selection{DisallowedTools: []string{"edit", "write", "shell", "NotebookEdit"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{"bash", "edit"}) {
		t.Errorf("denied = %v", got)
	}
}

func TestClaudeDisallowedTools(t *testing.T) {
	got, err := ClaudeDisallowedTools(Selection{DisallowedTools: []string{"shell", "web_search", "NotebookEdit", "view_image"}})
	if err != nil {
		t.Fatal(err)
	}
	// Removing Bash makes Claude Code add Glob and Grep; they are kept.
	if want := []string{"Bash", "NotebookEdit", "WebSearch"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	// allowedTools without glob/grep removes them as well as Bash.
	got, err = ClaudeDisallowedTools(Selection{AllowedTools: []string{"read", "edit", "write"}})
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
	got, err := CodexConfigOverrides(Selection{DisallowedTools: []string{"shell", "web_search", "view_image", "edit", "read"}})
	if err != nil {
		t.Fatal(err)
	}
	var overrides []string
	for _, s := range got {
		overrides = append(overrides, s.Override())
	}
	want := []string{"features.shell_tool=false", "features.unified_exec=false", "features.view_image=false",
		`web_search="disabled"`}
	if !slices.Equal(overrides, want) {
		t.Errorf("overrides = %v, want %v", overrides, want)
	}
	if got[3].Value != "disabled" || got[0].Value != false {
		t.Errorf("values: %+v", got)
	}
	none, err := CodexConfigOverrides(Selection{})
	if err != nil || len(none) != 0 {
		t.Errorf("omitted selection: %v, %v", none, err)
	}
}
