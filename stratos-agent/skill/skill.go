// Package skill is Stratos's agent skill: a SKILL.md and a short reference
// of the SDK and the CLI that teach a coding agent when and how to write,
// run and watch a workflow, and `stratos skill install|show`. The text is
// embedded and carries this Stratos version, which is also the SDK's
// (Stratos installs the SDK at its own version), so an installed skill
// always says which SDK it describes.
package skill

import (
	_ "embed" // the skill's text
	"os"
	"path/filepath"
	"strings"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/agentapi"
	"github.com/stratoscli/stratos/shared/version"
)

// The skill's text, with versionMark where the version goes.
var (
	//go:embed text/SKILL.md
	skillText string
	//go:embed text/reference.md
	referenceText string
)

// Name is the skill's name: its directory in a skills location and the
// name in its front matter.
const Name = "stratos"

// versionMark stands for the Stratos version in the embedded text.
const versionMark = "{{STRATOS_VERSION}}"

// File is one file of the skill.
type File struct {
	Name    string `json:"name"`
	Content string `json:"content"`
}

// Files returns the skill's files, SKILL.md first, with the version filled in.
func Files() []File {
	fill := func(s string) string { return strings.ReplaceAll(s, versionMark, version.Version) }
	return []File{{"SKILL.md", fill(skillText)}, {"reference.md", fill(referenceText)}}
}

// Install writes the skill's files into dir/<Name>/, each atomically, and
// returns the paths written. An existing skill of that name is replaced
// file by file.
func Install(dir string) ([]string, error) {
	target := filepath.Join(dir, Name)
	if err := os.MkdirAll(target, 0o755); err != nil {
		return nil, clierr.New(agentapi.CodeSkillWriteFailed, "create %s: %v", target, err).
			WithDetails(map[string]any{"path": target}).Wrap(err)
	}
	var written []string
	for _, f := range Files() {
		p := filepath.Join(target, f.Name)
		if err := atomicfile.WriteFile(p, []byte(f.Content), 0o644); err != nil {
			return written, clierr.New(agentapi.CodeSkillWriteFailed, "write %s: %v", p, err).
				WithDetails(map[string]any{"path": p}).Wrap(err)
		}
		written = append(written, p)
	}
	return written, nil
}
