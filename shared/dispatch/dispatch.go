// Package dispatch implements the `stratos` (alias `st`) dispatcher: it maps
// a subcommand to the tool that owns it and replaces itself with that tool,
// git style, so arguments, standard streams, signals and the exit code pass
// through untouched.
package dispatch

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/stratoscli/stratos/shared/cliapp/invokedas"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/sibling"
	"github.com/stratoscli/stratos/shared/version"
)

// Route says which tool owns a subcommand.
type Route struct {
	Tool string
	// Nested tools take the rest of the command line as their own
	// subcommands (`stratos models list` → `stratos-models list`); the others
	// get the subcommand name too (`stratos build x` → `stratos-build build x`).
	Nested bool
	Usage  string
	// SubcommandTools sends some subcommands of a group to another tool
	// than the group's: `stratos mcp serve` serves runs, so stratos-run owns
	// it, while the rest of `stratos mcp` is stratos-agent's. The key is
	// the word after the route's name; the tool gets the same arguments a
	// route to it would.
	SubcommandTools map[string]string
}

// ToolFor returns the tool that runs the route when rest (the words after
// the route's name) follows it.
func (r Route) ToolFor(rest []string) string {
	if len(rest) > 0 {
		if tool, ok := r.SubcommandTools[rest[0]]; ok {
			return tool
		}
	}
	return r.Tool
}

// Routes is the dispatch table. It lists only implemented commands: help
// prints every route, and a route to a stub would advertise a command that
// only answers "not implemented".
var Routes = map[string]Route{
	"list":     {Tool: "stratos-discover", Usage: "list workflows in the project and user roots"},
	"new":      {Tool: "stratos-build", Usage: "scaffold a new workflow that builds and runs as it stands"},
	"build":    {Tool: "stratos-build", Usage: "build workflows (npm, SDK, wrappers, tsc) and record their freshness"},
	"describe": {Tool: "stratos-build", Usage: "print a workflow's manual and input/output JSON Schemas"},
	"schema":   {Tool: "stratos-build", Usage: "print a workflow's input/output JSON Schemas"},
	"clean":    {Tool: "stratos-build", Usage: "remove generated wrappers, compiled output and build records"},
	"run":      {Tool: "stratos-run", Usage: "run a workflow and print its output JSON"},
	"runs":     {Tool: "stratos-run", Usage: "list, show, follow, stop and prune runs (stale running records become crashed)"},
	"test":     {Tool: "stratos-run", Usage: "run a workflow's test cases (tests/*.yaml) token-free and report which pass"},
	"serve":    {Tool: "stratos-run", Usage: "serve a live web view of the runs (127.0.0.1; list, run tree, events, Stop)"},
	"tools":    {Tool: "stratos-agent", Usage: "list the built-in tool names of each harness"},
	"provider": {Tool: "stratos-agent", Usage: "diagnose a local model provider (provider status ollama)"},
	"mcp": {Tool: "stratos-agent", SubcommandTools: map[string]string{"serve": "stratos-run"},
		Usage: "MCP: the servers workflows declare (mcp tools, login, logout, status); workflows served to coding agents (mcp serve)"},
	"skill":    {Tool: "stratos-agent", Usage: "install or print the agent skill that teaches coding agents Stratos"},
	"worker":   {Tool: "stratos-temporal", Usage: "take runs and agents from a Temporal task queue (stratos run --engine temporal)"},
	"worktree": {Tool: "stratos-worktree", Nested: true, Usage: "manage git worktrees for agents"},
	"models":   {Tool: "stratos-models", Nested: true, Usage: "look up the model catalog and harness candidates"},
}

// Main runs the dispatcher and returns an exit code when it does not exec.
func Main(args []string, stdout, stderr io.Writer) int {
	prog := "stratos"
	if len(args) > 0 && filepath.Base(args[0]) == "st" {
		prog = "st"
	}
	if len(args) < 2 {
		Help(stderr, prog)
		return clierr.ExitUsage
	}
	sub := args[1]
	switch sub {
	case "--version", "-v", "version":
		fmt.Fprintf(stdout, "stratos version %s\n", version.Version)
		return clierr.ExitOK
	case "help", "--help", "-h":
		if len(args) > 2 {
			// `stratos help mcp serve` is `stratos mcp serve --help`.
			if r, ok := Routes[args[2]]; ok {
				return execTool(prog, r, args[2], append(slices.Clone(args[3:]), "--help"), stderr)
			}
			return unknown(stderr, prog, args[2])
		}
		Help(stdout, prog)
		return clierr.ExitOK
	}
	r, ok := Routes[sub]
	if !ok {
		return unknown(stderr, prog, sub)
	}
	return execTool(prog, r, sub, args[2:], stderr)
}

func execTool(prog string, r Route, sub string, rest []string, stderr io.Writer) int {
	tool := r.ToolFor(rest)
	path, err := sibling.Find(tool)
	if err != nil {
		clierr.WriteText(stderr, "stratos", err)
		return clierr.ExitCode(err)
	}
	argv := []string{tool}
	words := prog
	if r.Nested {
		words += " " + sub
	} else {
		argv = append(argv, sub)
	}
	argv = append(argv, rest...)
	err = syscall.Exec(path, argv, invokedas.With(os.Environ(), tool, words))
	fmt.Fprintf(stderr, "stratos: exec %s: %v\n", path, err)
	return clierr.ExitFailed
}

func unknown(stderr io.Writer, prog, sub string) int {
	msg := fmt.Sprintf("%s: unknown command %q", prog, sub)
	if s := suggest(sub); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	fmt.Fprintf(stderr, "%s\nRun '%s help' for the list of commands.\n", msg, prog)
	return clierr.ExitUsage
}

// Help prints the subcommands with one line each.
func Help(w io.Writer, prog string) {
	fmt.Fprintf(w, "Stratos %s runs workflows of AI coding agents.\n\nUsage: %s <command> [arguments]\n\nCommands:\n", version.Version, prog)
	names := slices.Sorted(maps.Keys(Routes))
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, Routes[n].Usage)
	}
	fmt.Fprintf(w, "\nRun '%s help <command>' or '%s <command> --help' for a command's flags.\n", prog, prog)
}

// suggest returns the closest known subcommand, if any is close enough.
func suggest(sub string) string {
	best, bestD := "", 3
	for n := range Routes {
		d := distance(sub, n)
		if strings.HasPrefix(n, sub) && len(sub) >= 2 {
			d = 1
		}
		if d < bestD || (d == bestD && n < best) {
			best, bestD = n, d
		}
	}
	return best
}

// distance is the Levenshtein edit distance.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
