package tools

import "sort"

// Tool is one selectable name and what it means in each harness that has it.
type Tool struct {
	// Name is what authors write in allowedTools / disallowedTools
	// (case-sensitive).
	Name string
	// In holds the harnesses that provide the tool. A tool is canonical
	// when two or more harnesses provide it.
	In map[Harness]Mapping
}

// Mapping is how one harness provides a tool.
type Mapping struct {
	// Native is what removes the tool in that harness: Claude Code tool
	// names for --disallowedTools, Codex configuration keys (set to the
	// value codexOffValue gives), OpenCode permission keys. For an always-on
	// tool it is the harness tool that keeps it on.
	Native []string
	// AlwaysOn marks tools the harness cannot remove: naming them in either
	// list is allowed and has no effect.
	AlwaysOn bool
}

// Canonical reports whether two or more harnesses provide t.
func (t Tool) Canonical() bool { return len(t.In) >= 2 }

// removable returns the native names and true when harness h provides t
// and can remove it.
func (t Tool) removable(h Harness) ([]string, bool) {
	m, ok := t.In[h]
	if !ok || m.AlwaysOn {
		return nil, false
	}
	return m.Native, true
}

// Table returns the full mapping, sorted by name. It is built on every call
// so no caller can change what another one sees.
func Table() []Tool {
	t := []Tool{
		// Canonical names: tools two or more harnesses share.
		tool("edit", removable(ClaudeCode, "Edit"), alwaysOn(Codex, "apply_patch"), removable(OpenCode, "edit")),
		tool("glob", removable(ClaudeCode, "Glob"), removable(OpenCode, "glob")),
		tool("grep", removable(ClaudeCode, "Grep"), removable(OpenCode, "grep")),
		tool("question", removable(ClaudeCode, "AskUserQuestion"),
			removable(Codex, "tools.experimental_request_user_input.enabled"), removable(OpenCode, "question")),
		tool("read", removable(ClaudeCode, "Read"), removable(OpenCode, "read")),
		// Codex 0.171: unified_exec alone left exec_command in place
		// (docs/design/harness-tools.md); shell_tool switches the shell tool family off.
		tool("shell", removable(ClaudeCode, "Bash"),
			removable(Codex, "features.shell_tool", "features.unified_exec"), removable(OpenCode, "bash")),
		tool("skill", removable(ClaudeCode, "Skill"), removable(OpenCode, "skill")),
		// Claude Code reports the subagent tool as Task in system/init and
		// sends it to the API as Agent (docs/design/harness-tools.md); both names are
		// removed. ListAgents and SendMessage only talk to subagents.
		tool("subagent", removable(ClaudeCode, "Agent", "ListAgents", "SendMessage", "Task"),
			removable(Codex, "features.multi_agent", "features.multi_agent_v2"), removable(OpenCode, "task")),
		// Claude Code's task list is TodoWrite in older builds and the
		// TaskCreate/TaskGet/TaskList/TaskUpdate family in 2.1.332.
		tool("todo", removable(ClaudeCode, "TaskCreate", "TaskGet", "TaskList", "TaskUpdate", "TodoWrite"),
			removable(OpenCode, "todowrite")),
		tool("web_fetch", removable(ClaudeCode, "WebFetch"), removable(OpenCode, "webfetch")),
		// Codex: features.web_search is accepted but has no effect; only the
		// top-level web_search = "disabled" removes the tool (docs/design/harness-tools.md).
		tool("web_search", removable(ClaudeCode, "WebSearch"), removable(Codex, "web_search"),
			removable(OpenCode, "websearch")),
		// OpenCode's edit permission governs edit, write and apply_patch, so
		// write maps to the same permission (see checkPaired).
		tool("write", removable(ClaudeCode, "Write"), alwaysOn(Codex, "apply_patch"), removable(OpenCode, "edit")),
	}
	// Harness-specific names, spelled as each harness spells them (docs/tools.md).
	for _, name := range []string{"Artifact", "CronCreate", "CronDelete", "CronList", "EnterWorktree",
		"ExitWorktree", "Monitor", "NotebookEdit", "RemoteTrigger", "ReportFindings", "ScheduleWakeup",
		"SendFeedback", "ShareOnboardingGuide", "TaskStop", "Workflow"} {
		t = append(t, tool(name, removable(ClaudeCode, name)))
	}
	for _, name := range []string{"agent_message_board", "code_mode", "current_time_reminder", "deferred_executor",
		"goals", "image_generation", "memories", "request_permissions_tool", "sleep_tool", "token_budget",
		"tool_suggest", "view_image"} {
		t = append(t, tool(name, removable(Codex, "features."+name)))
	}
	t = append(t, tool("codesearch", removable(OpenCode, "codesearch")))
	sort.Slice(t, func(i, j int) bool { return t[i].Name < t[j].Name })
	return t
}

type harnessMapping struct {
	h Harness
	m Mapping
}

func tool(name string, ms ...harnessMapping) Tool {
	t := Tool{Name: name, In: make(map[Harness]Mapping, len(ms))}
	for _, hm := range ms {
		t.In[hm.h] = hm.m
	}
	return t
}

func removable(h Harness, native ...string) harnessMapping {
	return harnessMapping{h, Mapping{Native: native}}
}

func alwaysOn(h Harness, native ...string) harnessMapping {
	return harnessMapping{h, Mapping{Native: native, AlwaysOn: true}}
}

// codexOffValue is the TOML value that switches a Codex configuration key
// off. Feature switches take false; web_search is a mode, not a feature.
func codexOffValue(key string) any {
	if key == "web_search" {
		return "disabled"
	}
	return false
}
