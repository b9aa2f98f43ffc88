package skill

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/version"
)

func TestFilesCarryTheVersion(t *testing.T) {
	files := Files()
	if len(files) != 2 || files[0].Name != "SKILL.md" || files[1].Name != "reference.md" {
		t.Fatalf("files: %v", files)
	}
	for _, f := range files {
		if strings.Contains(f.Content, versionMark) || !strings.Contains(f.Content, version.Version) {
			t.Errorf("%s: the version is not filled in", f.Name)
		}
	}
	if !strings.HasPrefix(files[0].Content, "---\nname: stratos\ndescription: ") {
		t.Errorf("SKILL.md does not start with its front matter: %.60q", files[0].Content)
	}
}

func TestDir(t *testing.T) {
	project := t.TempDir()
	sub := filepath.Join(project, "src", "deep")
	if err := os.MkdirAll(filepath.Join(project, ".stratos"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	noVars := func(string) string { return "" }
	vars := func(k string) string {
		return map[string]string{"CLAUDE_CONFIG_DIR": "/cfg/claude", "XDG_CONFIG_HOME": "/cfg/xdg"}[k]
	}
	for _, c := range []struct {
		h    Harness
		s    Scope
		env  Env
		want string
	}{
		{Claude, Project, Env{Cwd: sub, Home: home, Getenv: noVars}, filepath.Join(project, ".claude", "skills")},
		{Codex, Project, Env{Cwd: sub, Home: home, Getenv: noVars}, filepath.Join(project, ".agents", "skills")},
		{OpenCode, Project, Env{Cwd: sub, Home: home, Getenv: noVars}, filepath.Join(project, ".opencode", "skills")},
		{Claude, Project, Env{Cwd: home, Home: home, Getenv: noVars}, filepath.Join(home, ".claude", "skills")},
		{Claude, User, Env{Cwd: sub, Home: home, Getenv: noVars}, filepath.Join(home, ".claude", "skills")},
		{Claude, User, Env{Cwd: sub, Home: home, Getenv: vars}, "/cfg/claude/skills"},
		{Codex, User, Env{Cwd: sub, Home: home, Getenv: vars}, filepath.Join(home, ".agents", "skills")},
		{OpenCode, User, Env{Cwd: sub, Home: home, Getenv: noVars}, filepath.Join(home, ".config", "opencode", "skills")},
		{OpenCode, User, Env{Cwd: sub, Home: home, Getenv: vars}, "/cfg/xdg/opencode/skills"},
	} {
		got, err := Dir(c.h, c.s, c.env)
		if err != nil || got != c.want {
			t.Errorf("Dir(%s, %s, cwd %s) = %q, %v; want %q", c.h, c.s, c.env.Cwd, got, err, c.want)
		}
	}
}

func TestInstallReplacesTheSkill(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".claude", "skills")
	old := filepath.Join(dir, Name, "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(old), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(old, []byte("an older skill"), 0o644); err != nil {
		t.Fatal(err)
	}
	written, err := Install(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != 2 {
		t.Fatalf("written: %v", written)
	}
	for i, f := range Files() {
		b, err := os.ReadFile(written[i])
		if err != nil || string(b) != f.Content {
			t.Errorf("%s: %v, content differs: %t", written[i], err, string(b) != f.Content)
		}
	}
}
