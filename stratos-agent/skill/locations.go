package skill

import (
	"os"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/agentapi"
	"github.com/stratoscli/stratos/shared/contract/discoverapi"
	"github.com/stratoscli/stratos/shared/roots"
)

// Harness is a coding agent the skill can be installed for: the agent a
// person writes workflows with, named as people know it, not a harness
// registration (docs/design/harness-registration.md says why the list is
// kept here).
type Harness string

// The harnesses with a skills location.
const (
	Claude   Harness = "claude"
	Codex    Harness = "codex"
	OpenCode Harness = "opencode"
)

// Harnesses lists them in flag order.
var Harnesses = []Harness{Claude, Codex, OpenCode}

// Scope says whether the skill is the project's or the user's.
type Scope string

// The scopes.
const (
	Project Scope = "project"
	User    Scope = "user"
)

// Env is what locating a skills directory reads: injected, so tests need no
// real home directory.
type Env struct {
	Cwd    string
	Home   string
	Getenv func(string) string
}

// OSEnv is the process's environment.
func OSEnv() (Env, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return Env{}, err
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return Env{}, clierr.New(agentapi.CodeHomeUnknown, "find the home directory: %v", err).Wrap(err)
	}
	return Env{Cwd: cwd, Home: home, Getenv: os.Getenv}, nil
}

// Dir is the directory that holds the harness's skills (each in a
// directory of its own) for the scope. The project is the directory that
// holds the project's .stratos/ (the working directory outside a project).
//
//	claude    .claude/skills      $CLAUDE_CONFIG_DIR/skills (default ~/.claude/skills)
//	codex     .agents/skills      ~/.agents/skills
//	opencode  .opencode/skills    $XDG_CONFIG_HOME/opencode/skills (default ~/.config/opencode/skills)
func Dir(h Harness, s Scope, env Env) (string, error) {
	if s == Project {
		project, err := projectDir(env.Cwd)
		if err != nil {
			return "", err
		}
		return filepath.Join(project, projectSkills[h]), nil
	}
	switch h {
	case Claude:
		return filepath.Join(orDefault(env.Getenv("CLAUDE_CONFIG_DIR"), filepath.Join(env.Home, ".claude")), "skills"), nil
	case Codex:
		return filepath.Join(env.Home, ".agents", "skills"), nil
	default:
		return filepath.Join(orDefault(env.Getenv("XDG_CONFIG_HOME"), filepath.Join(env.Home, ".config")), "opencode", "skills"), nil
	}
}

// projectSkills is each harness's skills directory in a project.
var projectSkills = map[Harness]string{
	Claude:   filepath.Join(".claude", "skills"),
	Codex:    filepath.Join(".agents", "skills"),
	OpenCode: filepath.Join(".opencode", "skills"),
}

func projectDir(cwd string) (string, error) {
	r, ok, err := roots.ProjectRoot(cwd)
	if err != nil {
		return "", clierr.New(discoverapi.CodeRootsUnresolved, "find the project of %s: %v", cwd, err).Wrap(err)
	}
	if !ok {
		return cwd, nil
	}
	return filepath.Dir(filepath.Dir(r.Dir)), nil // <project>/.stratos/workflows
}

func orDefault(v, def string) string {
	if v != "" {
		return v
	}
	return def
}
