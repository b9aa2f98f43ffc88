package command

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/buildapi"
	"github.com/stratoscli/stratos/shared/contract/discoverapi"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/roots"
)

func newWorkflowCommand() *cli.Command {
	return &cli.Command{
		Name:      "new",
		Usage:     "scaffold a workflow that builds and runs as it stands",
		UsageText: "stratos new <name> [--user] [--json]",
		Description: cliapp.Lines(
			"Creates <root>/<name>/ with workflow.yaml, workflow.ts (strict Zod input and output,",
			"a run that returns a value), package.json (no dependencies: the root's Zod serves",
			"every workflow) and tests/cases.yaml (one case that `stratos test` passes). The root is the",
			"project root (./.stratos/workflows/ when the working directory is not in a project",
			"yet) or, with --user, ~/.stratos/workflows/. Refuses an existing directory or a name",
			"already taken in that root.",
		),
		Flags:  []cli.Flag{cliapp.JSONFlag(), &cli.BoolFlag{Name: "user", Usage: "create it in the user root"}},
		Action: runNew,
	}
}

var workflowName = regexp.MustCompile(`^[a-z][a-z0-9-]{0,63}$`)

type newOutput struct {
	Name  string   `json:"name"`
	Root  string   `json:"root"`
	Dir   string   `json:"dir"`
	Files []string `json:"files"`
}

func runNew(ctx context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 1, 1, "<name> [--user] [--json]"); err != nil {
		return err
	}
	name := cmd.Args().First()
	if !workflowName.MatchString(name) {
		return clierr.Usage(buildapi.CodeNameInvalid, "workflow name %q must match ^[a-z][a-z0-9-]{0,63}$ (lowercase letter first, then lowercase letters, digits or '-')", name).
			WithDetails(map[string]any{"name": name})
	}
	cwd, err := os.Getwd()
	if err != nil {
		return clierr.New(discoverapi.CodeCwdUnreadable, "read working directory: %v", err)
	}
	root, err := scaffoldRoot(cwd, cmd.Bool("user"))
	if err != nil {
		return err
	}
	dir := filepath.Join(root.Dir, name)
	if _, err := os.Lstat(dir); err == nil {
		return clierr.Usage(buildapi.CodeWorkflowExists, "%s already exists; choose another name or remove it", dir).
			WithDetails(map[string]any{"name": name, "dir": dir})
	}
	cat, err := discovery.Load([]roots.Root{root})
	if err != nil {
		return clierr.New(discoverapi.CodeRootUnreadable, "%v", err)
	}
	if w, taken := cat.Roots[0].Workflows[name]; taken {
		return clierr.Usage(buildapi.CodeWorkflowExists, "the name %q is already taken in %s by %s", name, root.Dir, w.Dir).
			WithDetails(map[string]any{"name": name, "dir": w.Dir})
	}
	files := scaffoldFiles(name)
	if err := writeScaffold(dir, files); err != nil {
		return err
	}
	out := newOutput{Name: name, Root: string(root.Kind), Dir: dir, Files: []string{"package.json", "workflow.ts", "workflow.yaml", scaffoldCasesFile}}
	if cmd.Bool("json") {
		return clierr.PrintJSON(cmd.Root().Writer, out)
	}
	fmt.Fprintf(cmd.Root().Writer, "created %s\nbuild it:  stratos build %s\nrun it:    stratos run %s --input '{\"name\":\"Ada\"}'\ntest it:   stratos test %s\n", dir, name, name, name)
	return nil
}

func scaffoldRoot(cwd string, user bool) (roots.Root, error) {
	if user {
		r, err := roots.UserRoot()
		if err != nil {
			return roots.Root{}, clierr.New(discoverapi.CodeRootsUnresolved, "%v", err)
		}
		return r, nil
	}
	r, ok, err := roots.ProjectRoot(cwd)
	if err != nil {
		return roots.Root{}, clierr.New(discoverapi.CodeRootsUnresolved, "%v", err)
	}
	if !ok {
		r = roots.Root{Kind: roots.Project, Dir: filepath.Join(cwd, ".stratos", "workflows")}
	}
	return r, nil
}

// writeScaffold writes the files into a temporary directory beside dir and
// renames it into place, so a failure never leaves a half-made workflow.
func writeScaffold(dir string, files map[string]string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return clierr.New(buildapi.CodeScaffoldFailed, "create %s: %v", filepath.Dir(dir), err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".new-*")
	if err != nil {
		return clierr.New(buildapi.CodeScaffoldFailed, "create %s: %v", dir, err)
	}
	defer os.RemoveAll(tmp)
	for name, content := range files {
		path := filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return clierr.New(buildapi.CodeScaffoldFailed, "write %s: %v", name, err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			return clierr.New(buildapi.CodeScaffoldFailed, "write %s: %v", name, err)
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return clierr.New(buildapi.CodeScaffoldFailed, "create %s: %v", dir, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return clierr.New(buildapi.CodeScaffoldFailed, "create %s: %v", dir, err)
	}
	return nil
}

// scaffoldCasesFile holds the scaffold's test case: `stratos test <name>`
// passes as it stands.
const scaffoldCasesFile = "tests/cases.yaml"

const scaffoldCases = `# Test cases: stratos test runs each as a full run and checks what it expects
# (docs/testing.md). Agents can be switched to the test harness per case with
# scripts: {<configId>: {file: tests/scripts/<configId>.yaml}}.
cases:
  - name: greets by name
    input: {name: Ada}
    expect:
      output: {greeting: "Hello, Ada."}
`

func scaffoldFiles(name string) map[string]string {
	title := strings.ReplaceAll(name, "-", " ")
	return map[string]string{
		scaffoldCasesFile: scaffoldCases,
		"workflow.yaml": fmt.Sprintf(`name: %s
# One paragraph, at most 200 characters: what the workflow does.
shortDescription: Greets someone by name (replace with what %s does).
# The manual: inputs, outputs, side effects, how long it takes (at most 8,000 characters).
longDescription: |
  %s takes a name and returns a greeting. Replace this text with the
  workflow's manual: what it needs, what it returns and what it changes.
`, name, title, title),
		"workflow.ts": `import { z } from "zod";
import { workflow } from "@stratoscli/stratos";

export default workflow({
  // The input contract. Strict objects reject unknown fields; every field
  // needs a description (an empty one is fine when the name says it all).
  input: z.strictObject({
    name: z.string().describe("Who to greet."),
    excited: z.boolean().default(false).describe("End with an exclamation mark."),
  }),
  // The output contract, checked before the result is returned.
  output: z.strictObject({
    greeting: z.string().describe("The greeting."),
  }),
  // Runs once per invocation. Create agents and call child workflows here,
  // never at module level: building loads this module without calling run.
  async run(input) {
    return { greeting: "Hello, " + input.name + (input.excited ? "!" : ".") };
  },
});
`,
		// No zod of its own: the root's (installed with the SDK) serves every
		// workflow, where a copy per workflow costs megabytes and seconds.
		"package.json": fmt.Sprintf(`{
  "name": %q,
  "private": true,
  "type": "module"
}
`, name),
	}
}
