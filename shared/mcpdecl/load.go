package mcpdecl

import (
	"path/filepath"
	"strings"

	"github.com/stratoscli/stratos/shared/manifest"
)

// InvalidError says a workflow.yaml's mcp section (or the manifest itself)
// is invalid; it lists every problem with its field path.
type InvalidError struct {
	File     string
	Problems []Problem
}

func (e *InvalidError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = e.File + ": " + p.String()
	}
	return strings.Join(lines, "\n")
}

// Load reads the servers declared in workflowDir/workflow.yaml.
func Load(workflowDir string) (Servers, error) {
	file := filepath.Join(workflowDir, manifest.FileName)
	m, mp := manifest.Load(workflowDir)
	if len(mp) > 0 {
		e := &InvalidError{File: file}
		for _, p := range mp {
			e.Problems = append(e.Problems, Problem{Field: p.Field, Message: strings.TrimPrefix(p.Message, file+": ")})
		}
		return nil, e
	}
	servers, problems := Parse(m.Sections["mcp"])
	if len(problems) > 0 {
		return nil, &InvalidError{File: file, Problems: problems}
	}
	return servers, nil
}
