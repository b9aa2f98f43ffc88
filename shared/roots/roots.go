// Package roots resolves the discovery roots that hold workflows.
//
// The project root is .stratos/workflows/ in the nearest ancestor of the
// working directory that has a .stratos/ directory; the user root is
// ~/.stratos/workflows/. Because ~/.stratos/ also exists for settings and run
// records, the home directory's .stratos/ is never taken as a project: a
// working directory inside $HOME with no project of its own has no project
// root, rather than one that silently aliases the user root.
package roots

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Kind tells the two discovery roots apart.
type Kind string

// The discovery root kinds, in listing order.
const (
	Project Kind = "project"
	User    Kind = "user"
)

// Root is one discovery root.
type Root struct {
	Kind Kind   `json:"kind"`
	Dir  string `json:"dir"` // absolute path of …/.stratos/workflows
}

// Selection restricts which roots are used.
type Selection int

// Selections accepted by Resolve.
const (
	Both Selection = iota
	OnlyProject
	OnlyUser
)

// StratosHome returns ~/.stratos.
func StratosHome() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find home directory: %w", err)
	}
	return filepath.Join(home, ".stratos"), nil
}

// UserRoot returns ~/.stratos/workflows (whether or not it exists).
func UserRoot() (Root, error) {
	h, err := StratosHome()
	if err != nil {
		return Root{}, err
	}
	return Root{Kind: User, Dir: filepath.Join(h, "workflows")}, nil
}

// ProjectRoot returns the project root for cwd, and false when cwd is not
// inside a project.
func ProjectRoot(cwd string) (Root, bool, error) {
	dir, err := filepath.Abs(cwd)
	if err != nil {
		return Root{}, false, err
	}
	home, _ := StratosHome()
	for {
		candidate := filepath.Join(dir, ".stratos")
		if fi, err := os.Stat(candidate); err == nil && fi.IsDir() && !sameDir(candidate, home) {
			return Root{Kind: Project, Dir: filepath.Join(candidate, "workflows")}, true, nil
		} else if err != nil && !errors.Is(err, os.ErrNotExist) && !errors.Is(err, os.ErrPermission) {
			return Root{}, false, fmt.Errorf("look for %s: %w", candidate, err)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return Root{}, false, nil
		}
		dir = parent
	}
}

// Resolve returns the selected roots for cwd in listing order (project
// first). A root whose directory does not exist is still returned: it simply
// holds no workflows.
func Resolve(cwd string, sel Selection) ([]Root, error) {
	var out []Root
	if sel != OnlyUser {
		p, ok, err := ProjectRoot(cwd)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, p)
		}
	}
	if sel != OnlyProject {
		u, err := UserRoot()
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, nil
}

// ForWorkflowDir returns the root that holds the workflow directory dir,
// which must sit directly in a …/.stratos/workflows directory.
func ForWorkflowDir(dir string) (Root, bool) {
	parent := filepath.Dir(dir)
	if filepath.Base(parent) != "workflows" || filepath.Base(filepath.Dir(parent)) != ".stratos" {
		return Root{}, false
	}
	if u, err := UserRoot(); err == nil && sameDir(u.Dir, parent) {
		return u, true
	}
	return Root{Kind: Project, Dir: parent}, true
}

func sameDir(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}
