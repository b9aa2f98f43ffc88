package acpgeneric

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
	"github.com/stratoscli/stratos/stratos-agent/adapters/acp"
	"github.com/stratoscli/stratos/stratos-agent/jsonrpc"
)

// launcher prepares one session's agent process.
type launcher struct {
	opts  Options
	agent agentproto.ACPAgent
	// env is acp.env with its references resolved.
	env []string
}

// launch finds the program, makes the session's private directories in
// dir and returns the command with its environment: the host's PATH and
// locale, the private directories and the configured variables.
func (l launcher) launch(_ context.Context, spec adapter.Spec, dir string) (acp.Launch, error) {
	host := l.opts.Environ()
	path, err := program(l.agent.Command, spec.WorkflowDir, acp.Getenv(host, "PATH"))
	if err != nil {
		return acp.Launch{}, err
	}
	private, err := privateDirs(dir)
	if err != nil {
		return acp.Launch{}, fmt.Errorf("agent %q: the acp agent's private directories: %w", spec.Name, err)
	}
	env := append(append(inherited(host), private...), l.env...)
	if prompt := instructions(spec); prompt != "" {
		file := filepath.Join(dir, "system.md")
		if err := os.WriteFile(file, []byte(prompt), 0o600); err != nil {
			return acp.Launch{}, fmt.Errorf("agent %q: the acp agent's system prompt file: %w", spec.Name, err)
		}
		env = append(env, l.agent.SystemPromptFileVar+"="+file)
	}
	out := acp.Launch{Path: path, Args: l.agent.Args, Env: env, AuthMethod: l.agent.AuthMethod}
	if len(spec.Models) > 0 {
		// Chosen with session/set_model, among the models the agent
		// offers; an agent that offers none refuses it at the start.
		out.Model = spec.Models[0]
	}
	return out, nil
}

// program is command as a path: with a slash, relative to the workflow
// directory; without one, looked up on the host's PATH.
func program(command, workflowDir, pathList string) (string, error) {
	if strings.ContainsRune(command, '/') {
		p := command
		if !filepath.IsAbs(p) {
			p = filepath.Join(workflowDir, p)
		}
		if isExecutable(p) {
			return p, nil
		}
		return "", unavailable(command, fmt.Errorf("%s is not an executable file", p))
	}
	for _, d := range filepath.SplitList(pathList) {
		if p := filepath.Join(d, command); isExecutable(p) {
			return p, nil
		}
	}
	return "", unavailable(command, exec.ErrNotFound)
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

func unavailable(command string, err error) error {
	return rejection.New(rejection.HarnessUnavailable, "harness %s cannot start acp.command %q: %v", Harness, command, err).
		Wrap(err).WithDetails(map[string]any{"harness": Harness, "command": command})
}

// privateDirs makes the session's HOME, XDG directories and TMPDIR under
// dir and returns them as variables: whatever the agent reads or writes
// of its own configuration is the session's, never the user's.
func privateDirs(dir string) ([]string, error) {
	vars := []struct{ name, sub string }{
		{"HOME", "home"}, {"XDG_CONFIG_HOME", "config"}, {"XDG_DATA_HOME", "data"},
		{"XDG_STATE_HOME", "state"}, {"XDG_CACHE_HOME", "cache"}, {"TMPDIR", "tmp"},
	}
	out := make([]string, 0, len(vars))
	for _, v := range vars {
		p := filepath.Join(dir, v.sub)
		if err := os.MkdirAll(p, 0o700); err != nil {
			return nil, err
		}
		out = append(out, v.name+"="+p)
	}
	return out, nil
}

func hasInstructions(spec adapter.Spec) bool { return instructions(spec) != "" }

// instructions are the agent's system prompt followed by the worktree
// context, for the system-prompt file.
func instructions(spec adapter.Spec) string {
	var parts []string
	for _, p := range []string{spec.SystemPrompt, spec.HarnessContext} {
		if strings.TrimSpace(p) != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "\n\n")
}

// authRequired is ACP's error code for a request the agent refuses until
// the client authenticates.
const authRequired = -32000

// refusal reads a failed prompt: ACP's auth_required is an authentication
// rejection; anything else is an ordinary failure.
func refusal(spec adapter.Spec, err *jsonrpc.RemoteError, _ string, hadWork bool) error {
	if err.Code != authRequired {
		return nil
	}
	r := rejection.New(rejection.Authentication, "agent %q: harness %s: the agent requires authentication: %s (set acp.authMethod and pass its credentials through acp.env)",
		spec.Name, Harness, err.Message).WithDetails(map[string]any{"harness": Harness})
	if hadWork {
		return r.Final()
	}
	return r
}
