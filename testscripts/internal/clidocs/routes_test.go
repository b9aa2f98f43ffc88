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
// does not exist, and on a nested route to a tool without commands.
func TestRouteProblemsNamesEveryBrokenRoute(t *testing.T) {
	roots := []*cli.Command{
		{Name: "stratos-a", Commands: []*cli.Command{{Name: "go"}}},
		{Name: "stratos-flat"},
	}
	routes := map[string]dispatch.Route{
		"go":      {Tool: "stratos-a"},
		"gone":    {Tool: "stratos-a"},
		"ghost":   {Tool: "stratos-ghost"},
		"flat":    {Tool: "stratos-flat", Nested: true},
		"grouped": {Tool: "stratos-a", Nested: true},
	}
	got := strings.Join(routeProblems(routes, roots), "\n")
	for _, want := range []string{
		`route "flat": stratos-flat has no commands for a nested route`,
		`route "ghost": no tool stratos-ghost`,
		`route "gone": stratos-a has no command "gone"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "\n") + 1; n != 3 {
		t.Errorf("%d problems, want 3:\n%s", n, got)
	}
}

// routeProblems lists the routes whose tool, among roots, lacks the
// command the dispatcher would exec it with, in route order.
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
	}
	return problems
}
