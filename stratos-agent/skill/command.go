package skill

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/agentapi"
	"github.com/stratoscli/stratos/shared/version"
)

// Command is `stratos skill`: install and show.
func Command() *cli.Command {
	return &cli.Command{
		Name:     "skill",
		Usage:    "install or print the agent skill that teaches coding agents to write and run workflows",
		Commands: []*cli.Command{installCommand(), showCommand()},
	}
}

func installCommand() *cli.Command {
	flags := []cli.Flag{cliapp.JSONFlag(),
		&cli.BoolFlag{Name: "project", Usage: "install into the project's skills directory (the default)"},
		&cli.BoolFlag{Name: "user", Usage: "install into your user skills directory"},
	}
	for _, h := range Harnesses {
		flags = append(flags, &cli.BoolFlag{Name: string(h), Usage: fmt.Sprintf("install for %s", harnessTitle[h])})
	}
	return &cli.Command{
		Name:      "install",
		Usage:     "write the skill (SKILL.md and reference.md) into a coding agent's skills directory",
		UsageText: "stratos skill install [--claude] [--codex] [--opencode] [--project|--user] [--json]",
		Description: cliapp.Lines(
			"Writes <skills>/stratos/SKILL.md and reference.md for each harness named (Claude Code when",
			"none is): in the project (the directory holding .stratos/, or the working directory outside",
			"a project) .claude/skills, .agents/skills (Codex) or .opencode/skills; with --user",
			"$CLAUDE_CONFIG_DIR/skills (~/.claude/skills), ~/.agents/skills or",
			"$XDG_CONFIG_HOME/opencode/skills (~/.config/opencode/skills). Existing files of the",
			"skill are replaced."),
		Flags:  flags,
		Action: install,
	}
}

var harnessTitle = map[Harness]string{Claude: "Claude Code", Codex: "Codex", OpenCode: "OpenCode"}

// Installed is the JSON result of `stratos skill install --json`.
type Installed struct {
	Version string         `json:"version"`
	Skills  []Installation `json:"skills"`
}

// Installation is the skill installed for one harness.
type Installation struct {
	Harness Harness  `json:"harness"`
	Scope   Scope    `json:"scope"`
	Dir     string   `json:"dir"`
	Files   []string `json:"files"`
}

func install(_ context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 0, 0, "[--claude] [--codex] [--opencode] [--project|--user] [--json]"); err != nil {
		return err
	}
	if cmd.Bool("project") && cmd.Bool("user") {
		return clierr.Usage(agentapi.CodeSkillTargetInvalid, "--project and --user exclude each other")
	}
	scope := Project
	if cmd.Bool("user") {
		scope = User
	}
	var hs []Harness
	for _, h := range Harnesses {
		if cmd.Bool(string(h)) {
			hs = append(hs, h)
		}
	}
	if len(hs) == 0 {
		hs = []Harness{Claude}
	}
	env, err := OSEnv()
	if err != nil {
		return err
	}
	res := Installed{Version: version.Version}
	for _, h := range hs {
		dir, err := Dir(h, scope, env)
		if err != nil {
			return err
		}
		files, err := Install(dir)
		if err != nil {
			return err
		}
		res.Skills = append(res.Skills, Installation{Harness: h, Scope: scope, Dir: dir, Files: files})
	}
	if cmd.Bool("json") {
		return clierr.PrintJSON(cmd.Root().Writer, res)
	}
	for _, in := range res.Skills {
		fmt.Fprintf(cmd.Root().Writer, "installed the stratos skill %s for %s in %s/%s\n", res.Version, harnessTitle[in.Harness], in.Dir, Name)
	}
	return nil
}

func showCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "print the skill (SKILL.md, then reference.md)",
		UsageText: "stratos skill show [--json]",
		Flags:     []cli.Flag{cliapp.JSONFlag()},
		Action:    show,
	}
}

// Shown is the JSON result of `stratos skill show --json`.
type Shown struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Files   []File `json:"files"`
}

func show(_ context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 0, 0, "[--json]"); err != nil {
		return err
	}
	files := Files()
	if cmd.Bool("json") {
		return clierr.PrintJSON(cmd.Root().Writer, Shown{Name: Name, Version: version.Version, Files: files})
	}
	w := cmd.Root().Writer
	for i, f := range files {
		if i > 0 {
			fmt.Fprintf(w, "\n<!-- %s -->\n\n", f.Name)
		}
		fmt.Fprint(w, f.Content)
	}
	return nil
}
