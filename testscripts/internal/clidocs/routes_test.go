package clidocs

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/dispatch"
)

// Every route of the `stratos` dispatcher must reach a tool that has the
// command: `stratos build` execs `stratos-build build`, so stratos-build's
// tree needs a build command; a nested route (`stratos models list` →
// `stratos-models list`) needs a tool with commands of its own. A route
// renamed on one side only would otherwise pass every test until a user
// typed it.
func TestEveryDispatcherRouteReachesACommand(t *testing.T) {
	// tools() lists the dispatcher too: routeProblems only looks up the
	// tools the routes name.
	for _, p := range routeProblems(dispatch.Routes, tools()) {
		t.Error(p)
	}
}

// The check itself fails on a route to a missing command, to a tool that
// does not exist, and on a nested route to a tool without commands; and,
// for a subcommand a route sends to another tool, on that tool lacking it
// (under the group's name, or at its top for a nested route), on a missing
// tool, and on the group's own tool still having it.
func TestRouteProblemsNamesEveryBrokenRoute(t *testing.T) {
	group := func(subs ...string) *cli.Command {
		g := &cli.Command{Name: "grp"}
		for _, s := range subs {
			g.Commands = append(g.Commands, &cli.Command{Name: s})
		}
		return g
	}
	roots := []*cli.Command{
		{Name: "stratos-a", Commands: []*cli.Command{{Name: "go"}, group("keep", "twice"), {Name: "top"}}},
		{Name: "stratos-b", Commands: []*cli.Command{group("moved", "twice"), {Name: "up"}}},
		{Name: "stratos-flat"},
	}
	routes := map[string]dispatch.Route{
		"go":      {Tool: "stratos-a"},
		"gone":    {Tool: "stratos-a"},
		"ghost":   {Tool: "stratos-ghost"},
		"flat":    {Tool: "stratos-flat", Nested: true},
		"grouped": {Tool: "stratos-a", Nested: true, SubcommandTools: map[string]string{"up": "stratos-b", "down": "stratos-b"}},
		"grp": {Tool: "stratos-a", SubcommandTools: map[string]string{
			"moved": "stratos-b", "missing": "stratos-b", "nowhere": "stratos-ghost", "twice": "stratos-b",
		}},
	}
	got := strings.Join(routeProblems(routes, roots), "\n")
	for _, want := range []string{
		`route "flat": stratos-flat has no commands for a nested route`,
		`route "ghost": no tool stratos-ghost`,
		`route "gone": stratos-a has no command "gone"`,
		`route "grouped down": stratos-b has no command "down"`,
		`route "grp missing": stratos-b has no command "grp missing"`,
		`route "grp nowhere": no tool stratos-ghost`,
		`route "grp twice": stratos-a's "grp twice" is unreachable: the route sends it to stratos-b`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "\n") + 1; n != 7 {
		t.Errorf("%d problems, want 7:\n%s", n, got)
	}
}

// routeProblems lists the routes whose tool, among roots, lacks the
// command the dispatcher would exec it with, in route order; a subcommand
// a route sends to another tool is checked on both sides.
func routeProblems(routes map[string]dispatch.Route, roots []*cli.Command) []string {
	byName := make(map[string]*cli.Command, len(roots))
	for _, r := range roots {
		byName[r.Name] = r
	}
	var problems []string
	for _, name := range slices.Sorted(maps.Keys(routes)) {
		r := routes[name]
		root, ok := byName[r.Tool]
		switch {
		case !ok:
			problems = append(problems, `route "`+name+`": no tool `+r.Tool)
		case r.Nested && len(root.Commands) == 0:
			problems = append(problems, `route "`+name+`": `+r.Tool+" has no commands for a nested route")
		case !r.Nested && root.Command(name) == nil:
			problems = append(problems, `route "`+name+`": `+r.Tool+` has no command "`+name+`"`)
		}
		problems = append(problems, subcommandProblems(name, r, byName)...)
	}
	return problems
}

// subcommandProblems checks the subcommands a route sends to another tool:
// that tool must have the subcommand, under the route's name unless the
// route is nested, and the route's own tool must not have it too (no one
// could run it there).
func subcommandProblems(name string, r dispatch.Route, byName map[string]*cli.Command) []string {
	var problems []string
	for _, word := range slices.Sorted(maps.Keys(r.SubcommandTools)) {
		tool, route := r.SubcommandTools[word], `route "`+name+" "+word+`": `
		path := []string{name, word}
		if r.Nested {
			path = path[1:]
		}
		root, ok := byName[tool]
		switch {
		case !ok:
			problems = append(problems, route+"no tool "+tool)
		case !hasCommand(root, path):
			problems = append(problems, route+tool+` has no command "`+strings.Join(path, " ")+`"`)
		}
		if own, ok := byName[r.Tool]; ok && hasCommand(own, path) {
			problems = append(problems, route+r.Tool+`'s "`+strings.Join(path, " ")+`" is unreachable: the route sends it to `+tool)
		}
	}
	return problems
}

// hasCommand reports whether root has the command path names, a word a level.
func hasCommand(root *cli.Command, path []string) bool {
	cmd := root
	for _, word := range path {
		if cmd = cmd.Command(word); cmd == nil {
			return false
		}
	}
	return true
}
