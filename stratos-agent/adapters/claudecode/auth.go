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
	"github.com/stratoscli/stratos/shared/procgroup"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
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
// credential files; the CLI decides (docs/design/claude-code-cli.md,
// "Authentication").
func checkAuth(ctx context.Context, bin, dir string, env []string) (authStatus, error) {
	ctx, cancel := context.WithTimeout(ctx, authTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "auth", "status")
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := procgroup.Run(cmd, procgroup.Options{})
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
		return st, rejection.New(rejection.Authentication,
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

// credentialVars are the environment variables with which `claude auth
// status` always reports a usable login (docs/design/claude-code-cli.md): asking the
// CLI then costs a full CLI start (0.5–4 s) and says nothing new.
var credentialVars = []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"}

// envAuthenticates reports whether env alone makes the CLI authenticated:
// a credential variable is set, or a third-party backend is selected (the
// CLI reports those as logged in without checking cloud credentials).
// It looks at whether the variables are set, never at their values.
func envAuthenticates(env []string, backend map[string]string) bool {
	if len(backend) > 0 {
		return true
	}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		for _, c := range credentialVars {
			if k == c && v != "" {
				return true
			}
		}
	}
	return false
}
