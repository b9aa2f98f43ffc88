package codex

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/procgroup"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// authTimeout bounds `codex login status` (it answers from local state).
const authTimeout = 30 * time.Second

// checkLogin asks Codex itself whether the user's Codex home holds a saved
// login: `codex login status` exits 0 when it does and 1 with "Not logged
// in" when not. Stratos never opens auth.json.
func checkLogin(ctx context.Context, bin string, env []string, userHome string) error {
	ctx, cancel := context.WithTimeout(ctx, authTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "login", "status")
	cmd.Env = withEnv(env, "CODEX_HOME", userHome)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := procgroup.Run(cmd, procgroup.Options{})
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &exitErr):
		return rejection.New(rejection.Authentication,
			"harness codex has no usable authentication (codex login status: %s): set OPENAI_API_KEY, or log in with `codex login`",
			firstLine(stderr.String(), "not logged in")).WithDetails(map[string]any{"harness": Harness})
	}
	return agentproto.Errorf(agentproto.CodeInitialization, "harness codex: cannot run %s login status: %v", bin, err).Wrap(err)
}

// linkLogin makes the isolated home use the user's saved login through a
// symlink to their auth.json: Codex reads (and refreshes) it in place, and
// Stratos never holds a copy of the credential.
func linkLogin(isolated, userHome string) error {
	return os.Symlink(filepath.Join(userHome, "auth.json"), filepath.Join(isolated, "auth.json"))
}

func firstLine(s, fallback string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return fallback
	}
	line, _, _ := strings.Cut(s, "\n")
	return line
}
