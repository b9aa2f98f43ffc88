package command

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/roots"
)

// worktreeWord is what a workflow that may give its agents worktrees
// says somewhere: in workflow.yaml, its TypeScript, or the overrides.
var worktreeWord = []byte("worktree")

// maxScanned bounds each file read looking for it.
const maxScanned = 1 << 20

// usesWorktrees reports whether the run's workflow may put agents in
// worktrees: its workflow.yaml, its TypeScript sources (not node_modules)
// or the run's --overrides mention worktree. It errs on the side of yes:
// such a run without a remote is refused before it starts, instead of
// leaving agents' work on a machine nobody can reach. A workflow that
// cannot be resolved here is left to the worker's stratos run to report.
func usesWorktrees(cwd string, args []string) bool {
	name, overrides := workflowArgs(args)
	if strings.Contains(overrides, string(worktreeWord)) || overridesFileMentions(overrides, cwd) {
		return true
	}
	if name == "" {
		return false
	}
	wf, _, err := discovery.Resolve(cwd, name, roots.Both)
	if err != nil {
		return false
	}
	found := false
	_ = filepath.WalkDir(wf.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || found {
			return filepath.SkipDir
		}
		if d.IsDir() {
			if path != wf.Dir && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(path); ext == ".ts" || ext == ".yaml" || ext == ".yml" || ext == ".mts" {
			found = fileMentions(path)
		}
		return nil
	})
	return found
}

// overridesFileMentions reports whether --overrides=@file's file mentions
// worktree.
func overridesFileMentions(overrides, cwd string) bool {
	file, ok := strings.CutPrefix(overrides, "@")
	if !ok || file == "" {
		return false
	}
	if !filepath.IsAbs(file) {
		file = filepath.Join(cwd, file)
	}
	return fileMentions(file)
}

func fileMentions(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, maxScanned)
	n, _ := f.Read(buf)
	return bytes.Contains(buf[:n], worktreeWord)
}

// workflowArgs finds the workflow and the --overrides value in stratos
// run's arguments (flags as --name=value, as stratos run forwards them, or
// --name value).
func workflowArgs(args []string) (name, overrides string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) && name == "" {
				name = args[i+1]
			}
			return name, overrides
		case strings.HasPrefix(a, "--overrides="):
			overrides = strings.TrimPrefix(a, "--overrides=")
		case a == "--overrides" && i+1 < len(args):
			overrides = args[i+1]
			i++
		case strings.HasPrefix(a, "-"):
			if !strings.Contains(a, "=") && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && takesValue(a) {
				i++
			}
		case name == "":
			name = a
		}
	}
	return name, overrides
}

// takesValue reports whether stratos run's flag takes a value (the
// others are switches).
func takesValue(flag string) bool {
	switch strings.TrimLeft(flag, "-") {
	case "json", "detach", "d":
		return false
	}
	return true
}
