package skillcheck

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/dispatch"
	agent "github.com/stratoscli/stratos/stratos-agent/command"
	"github.com/stratoscli/stratos/stratos-agent/skill"
	build "github.com/stratoscli/stratos/stratos-build/command"
	discover "github.com/stratoscli/stratos/stratos-discover/command"
	models "github.com/stratoscli/stratos/stratos-models/command"
	run "github.com/stratoscli/stratos/stratos-run/command"
	worktree "github.com/stratoscli/stratos/stratos-worktree/command"
	"github.com/stratoscli/stratos/testscripts/internal/clidocs"
)

// code returns the skill's code: fenced blocks and `code spans`.
func code(t *testing.T) []string {
	t.Helper()
	var out []string
	span := regexp.MustCompile("`([^`\n]+)`")
	for _, f := range skill.Files() {
		fenced := false
		var block strings.Builder
		for line := range strings.SplitSeq(f.Content, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				if fenced {
					out = append(out, block.String())
					block.Reset()
				}
				fenced = !fenced
				continue
			}
			if fenced {
				block.WriteString(line + "\n")
				continue
			}
			for _, m := range span.FindAllStringSubmatch(line, -1) {
				out = append(out, m[1])
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("the skill has no code")
	}
	return out
}

// commandLine is `stratos` and what follows it up to the end of the code,
// a pipe or a slash between alternatives.
var commandLine = regexp.MustCompile(`\bstratos((?: +[^ |/]+)*)`)

// Every `stratos …` command line in the skill names a command Stratos has,
// with flags that command accepts.
func TestSkillCommandsExist(t *testing.T) {
	tools := map[string]*cli.Command{}
	for _, c := range []*cli.Command{discover.Root(), build.Root(), run.Root(), agent.Root(), worktree.Root(), models.Root()} {
		tools[c.Name] = c
	}
	checked := 0
	for _, c := range code(t) {
		c = strings.ReplaceAll(c, `\|`, " ") // alternatives in a table cell
		for _, m := range commandLine.FindAllStringSubmatch(c, -1) {
			words := strings.Fields(m[1])
			if len(words) == 0 || strings.HasPrefix(words[0], "@") || strings.Contains(words[0], "(") {
				continue // @stratoscli/stratos, a sentence
			}
			if err := check(tools, words); err != "" {
				t.Errorf("the skill mentions `stratos %s`: %s", strings.Join(words, " "), err)
			}
			checked++
		}
	}
	if checked < 10 {
		t.Fatalf("only %d command lines found; the extraction is broken", checked)
	}
}

// check resolves words against the dispatcher and the owning tool's tree.
func check(tools map[string]*cli.Command, words []string) string {
	route, ok := dispatch.Routes[words[0]]
	if !ok {
		return "no command " + words[0]
	}
	cmd := tools[route.ToolFor(words[1:])]
	rest := words
	if route.Nested {
		rest = words[1:]
	}
	for _, w := range rest {
		w = strings.Trim(w, "[]")
		switch {
		case strings.HasPrefix(w, "--"):
			name, _, _ := strings.Cut(strings.TrimPrefix(w, "--"), "=")
			if !hasFlag(cmd, name) {
				return "no flag --" + name + " on " + cmd.FullName()
			}
		case strings.HasPrefix(w, "-"), strings.HasPrefix(w, "<"), strings.ContainsAny(w, `'"{}@\`), w == "" || w == "...":
		default:
			if sub := sub(cmd, w); sub != nil {
				cmd = sub
			} else if len(cmd.Commands) > 0 {
				return "no subcommand " + w + " of " + cmd.FullName()
			}
		}
	}
	return ""
}

func sub(cmd *cli.Command, name string) *cli.Command {
	for _, c := range cmd.Commands {
		if c.Name == name || slices.Contains(c.Aliases, name) {
			return c
		}
	}
	return nil
}

func hasFlag(cmd *cli.Command, name string) bool {
	for _, f := range cmd.Flags {
		if slices.Contains(f.Names(), name) {
			return true
		}
	}
	return false
}

// sdkExports reads the names the SDK's package entry exports.
func sdkExports(t *testing.T) map[string]bool {
	t.Helper()
	repo, err := clidocs.WorkingRepositoryRoot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(repo, "shared", "sdk", "dist", "index.d.ts"))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, m := range regexp.MustCompile(`export (?:type )?\{([^}]*)\}`).FindAllStringSubmatch(string(b), -1) {
		for n := range strings.SplitSeq(m[1], ",") {
			if n = strings.TrimSpace(n); n != "" {
				names[n] = true
			}
		}
	}
	if !names["workflow"] || !names["createAgent"] {
		t.Fatalf("index.d.ts exports %v: the parse is broken", names)
	}
	return names
}

// notSDK are the functions the skill's code calls that are not the SDK's:
// zod's, methods of SDK objects, generated child wrappers, the platform's.
var notSDK = map[string]bool{
	"object": true, "strictObject": true, "string": true, "boolean": true, "array": true, "number": true,
	"int": true, "default": true, "describe": true, "execute": true, "cancel": true, "run": true,
	"all": true, "fetch": true, "createX": true, "createSummarize": true,
}

// Every SDK function the skill imports or calls, and every error class it
// names, is exported by @stratoscli/stratos.
func TestSkillSDKNamesExist(t *testing.T) {
	exports := sdkExports(t)
	imports := regexp.MustCompile(`import \{([^}]*)\} from "@stratoscli/stratos"`)
	calls := regexp.MustCompile(`(?:^|[^.\w])([a-zA-Z]\w*)\(`)
	errorsRe := regexp.MustCompile(`\b([A-Z]\w*Error)\b`)
	var names []string
	for _, c := range code(t) {
		for _, m := range imports.FindAllStringSubmatch(c, -1) {
			for n := range strings.SplitSeq(m[1], ",") {
				names = append(names, strings.TrimSpace(n))
			}
		}
		for _, m := range calls.FindAllStringSubmatch(c, -1) {
			if !notSDK[m[1]] {
				names = append(names, m[1])
			}
		}
		for _, m := range errorsRe.FindAllStringSubmatch(c, -1) {
			names = append(names, m[1])
		}
	}
	if len(names) < 8 {
		t.Fatalf("only %v found; the extraction is broken", names)
	}
	for _, n := range names {
		if !exports[n] {
			t.Errorf("the skill mentions %s, which @stratoscli/stratos does not export", n)
		}
	}
}
