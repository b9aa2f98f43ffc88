package cliapp

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/clierr"
)

func newTestCommand(action cli.ActionFunc) *cli.Command {
	return &cli.Command{
		Name: "tool",
		Commands: []*cli.Command{{
			Name: "do", Flags: []cli.Flag{JSONFlag()}, Action: action,
		}},
	}
}

func TestUsageErrorWithJSONPrintsOnlyTheEnvelope(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := RunContext(context.Background(), newTestCommand(func(context.Context, *cli.Command) error { return nil }),
		[]string{"tool", "do", "--jsn", "--json"}, IO{Stdout: &stdout, Stderr: &stderr})
	if code != clierr.ExitUsage {
		t.Errorf("exit = %d, want %d", code, clierr.ExitUsage)
	}
	if !strings.HasPrefix(stdout.String(), `{"error":{"code":"usage",`) || strings.Count(stdout.String(), "\n") != 1 {
		t.Errorf("stdout = %q, want only the JSON envelope", stdout.String())
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr = %q, want nothing", stderr.String())
	}
}

func TestUsageErrorWithoutJSONIsOneLineOnStderr(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := RunContext(context.Background(), newTestCommand(func(context.Context, *cli.Command) error { return nil }),
		[]string{"tool", "do", "--jsn"}, IO{Stdout: &stdout, Stderr: &stderr})
	if code != clierr.ExitUsage || stdout.Len() != 0 || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2, nothing, one line", code, stdout.String(), stderr.String())
	}
}

func TestFailureAfterInterruptIsInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	code := RunContext(ctx, newTestCommand(func(context.Context, *cli.Command) error {
		return clierr.New("npm_failed", "npm install failed")
	}), []string{"tool", "do", "--json"}, IO{Stdout: &stdout, Stderr: &stderr})
	if code != clierr.ExitInterrupted {
		t.Errorf("exit = %d, want %d", code, clierr.ExitInterrupted)
	}
	if !strings.Contains(stdout.String(), `"code":"interrupted","message":"interrupted: npm install failed"`) {
		t.Errorf("stdout = %s", stdout.String())
	}
}
