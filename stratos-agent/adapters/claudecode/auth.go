package claudecode

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// authTimeout bounds `claude auth status` (about 0.5 s measured; it makes
// no network call with the nonessential-traffic flag set).
const authTimeout = 30 * time.Second

// authStatus is the part of `claude auth status` (JSON by default) the
// adapter reads. It names the method, never a credential.
type authStatus struct {
	LoggedIn    bool   `json:"loggedIn"`
	AuthMethod  string `json:"authMethod"`
	APIProvider string `json:"apiProvider"`
}

// checkAuth asks the CLI itself whether it has usable authentication in env:
// an API key or token in the environment, a third-party backend flag, or
// the native login the CLI manages. Stratos never opens the CLI's
// credential files; the CLI decides (claude-code.md §14).
func checkAuth(ctx context.Context, bin, dir string, env []string) (authStatus, error) {
	ctx, cancel := context.WithTimeout(ctx, authTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "auth", "status")
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var st authStatus
	if err := json.Unmarshal(stdout.Bytes(), &st); err != nil {
		var exitErr *exec.ExitError
		if runErr != nil && !errors.As(runErr, &exitErr) {
			return st, agentproto.Errorf(agentproto.CodeInitialization, "harness claude-code: cannot run %s auth status: %v", bin, runErr).Wrap(runErr)
		}
		return st, agentproto.Errorf(agentproto.CodeInitialization, "harness claude-code: %s auth status printed no status (%v): %s",
			bin, runErr, strings.TrimSpace(stderr.String()))
	}
	if !st.LoggedIn {
		return st, agentproto.Errorf(agentproto.CodeAuthentication,
			"harness claude-code has no usable authentication (claude auth status: not logged in, provider %s): set ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN, configure a backend (e.g. CLAUDE_CODE_USE_BEDROCK), or log in with `claude auth login`",
			orNone(st.APIProvider)).
			WithDetails(map[string]any{"harness": "claude-code", "authMethod": st.AuthMethod, "apiProvider": st.APIProvider})
	}
	return st, nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
