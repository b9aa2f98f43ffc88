package clidocs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README's `go install` recipe must install every tool the dispatcher
// can send a command to: a tool left out of it installs fine and then
// fails the first time a user types one of its commands (the recipe once
// lacked stratos-temporal).
func TestReadmeInstallsEveryTool(t *testing.T) {
	root, err := WorkingRepositoryRoot()
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, missing := range uninstalledTools(string(readme)) {
		t.Errorf("README.md's go install recipe does not install %s", missing)
	}
}

func TestUninstalledToolsNamesWhatTheLoopLacks(t *testing.T) {
	readme := "```sh\nfor t in discover build run agent worktree models; do\n  go install x/stratos-$t/cmd/stratos-$t@latest\ndone\n```\n"
	if got := strings.Join(uninstalledTools(readme), " "); got != "stratos-temporal" {
		t.Fatalf("uninstalledTools = %q, want stratos-temporal", got)
	}
	if got := uninstalledTools("no recipe here"); len(got) == 0 {
		t.Fatal("a README without the loop passed")
	}
}

var installLoop = regexp.MustCompile(`(?m)^for t in ([a-z ]+); do$`)

// uninstalledTools lists the tools (not the dispatcher, installed on a
// line of its own) that readme's `for t in …` install loop does not name.
func uninstalledTools(readme string) []string {
	m := installLoop.FindStringSubmatch(readme)
	named := map[string]bool{}
	if m != nil {
		for _, t := range strings.Fields(m[1]) {
			named["stratos-"+t] = true
		}
	}
	var missing []string
	for _, cmd := range tools()[1:] {
		if !named[cmd.Name] {
			missing = append(missing, cmd.Name)
		}
	}
	return missing
}
