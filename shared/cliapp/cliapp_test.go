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

// Flag values a parser refuses are reported in the user's terms, never
// with strconv's text, with code usage and exit 2.
func TestRefusedFlagValuesSayWhatIsWrong(t *testing.T) {
	newCmd := func() *cli.Command {
		return &cli.Command{
			Name: "tool",
			Commands: []*cli.Command{{
				Name: "do",
				Flags: []cli.Flag{
					JSONFlag(),
					&cli.IntFlag{Name: "keep"},
					&cli.UintFlag{Name: "count"},
					&cli.FloatFlag{Name: "budget-usd"},
					&cli.BoolFlag{Name: "detach", Aliases: []string{"d"}},
					&cli.DurationFlag{Name: "wait"},
				},
				Action: func(context.Context, *cli.Command) error { return nil },
			}},
		}
	}
	for _, tc := range []struct{ args, want string }{
		{"--keep abc", `--keep: "abc" is not a whole number (see tool do --help)`},
		{"--keep 1e9", `--keep: "1e9" is not a whole number (see tool do --help)`},
		{"--keep 99999999999999999999", `--keep: "99999999999999999999" is out of range (see tool do --help)`},
		{"--count -1", `--count: "-1" is not a whole number of 0 or more (see tool do --help)`},
		{"--budget-usd abc", `--budget-usd: "abc" is not a number (see tool do --help)`},
		{"--budget-usd 1e400", `--budget-usd: "1e400" is out of range (see tool do --help)`},
		{"--detach=maybe", `--detach: "maybe" is not true or false (see tool do --help)`},
		{"-d=maybe", `-d: "maybe" is not true or false (see tool do --help)`},
		{"--wait 5", `--wait: "5" is not a duration such as 90s, 5m or 1h (see tool do --help)`},
	} {
		t.Run(tc.args, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"tool", "do"}, strings.Fields(tc.args)...)
			code := RunContext(context.Background(), newCmd(), args, IO{Stdout: &stdout, Stderr: &stderr})
			if code != clierr.ExitUsage {
				t.Errorf("exit = %d, want %d", code, clierr.ExitUsage)
			}
			if got, want := stderr.String(), "tool: "+tc.want+"\n"; got != want {
				t.Errorf("stderr = %q, want %q", got, want)
			}
			code = RunContext(context.Background(), newCmd(), append(args, "--json"), IO{Stdout: &stdout, Stderr: &stderr})
			if code != clierr.ExitUsage || !strings.Contains(stdout.String(), `"code":"usage"`) || strings.Contains(stdout.String(), "strconv") {
				t.Errorf("with --json: exit %d, stdout %s; want 2 and code usage without strconv's text", code, stdout.String())
			}
		})
	}
}

// Started by the dispatcher, a tool names itself as the user typed it, in
// its error line and its usage hint; the variable naming another tool (a
// caller's, inherited) changes nothing.
func TestErrorsNameTheCommandTheUserTyped(t *testing.T) {
	for _, tc := range []struct{ env, want string }{
		{"tool=stratos", `stratos: flag provided but not defined: -jsn (see stratos do --help)` + "\n"},
		{"tool=stratos tool", `stratos tool: flag provided but not defined: -jsn (see stratos tool do --help)` + "\n"},
		{"other=stratos", `tool: flag provided but not defined: -jsn (see tool do --help)` + "\n"},
		{"", `tool: flag provided but not defined: -jsn (see tool do --help)` + "\n"},
	} {
		t.Setenv(InvokedAsEnv, tc.env)
		var stdout, stderr bytes.Buffer
		RunContext(context.Background(), newTestCommand(func(context.Context, *cli.Command) error { return nil }),
			[]string{"tool", "do", "--jsn"}, IO{Stdout: &stdout, Stderr: &stderr})
		if stderr.String() != tc.want {
			t.Errorf("%s=%q: stderr = %q, want %q", InvokedAsEnv, tc.env, stderr.String(), tc.want)
		}
	}
}

func TestWithInvokedAsReplacesAnInheritedValue(t *testing.T) {
	env := WithInvokedAs([]string{"HOME=/h", "STRATOS_INVOKED_AS=stratos-run=stratos", "X=1"}, "stratos-models", "stratos models")
	if strings.Join(env, "\n") != "HOME=/h\nX=1\nSTRATOS_INVOKED_AS=stratos-models=stratos models" {
		t.Fatalf("env = %q", env)
	}
}

// A first argument that names no command is called that, with or without
// --json. urfave/cli said "No help topic for 'nosuch'", and with --json
// complained of the flag ("flag provided but not defined: -json").
func TestUnknownCommandIsNamed(t *testing.T) {
	for _, args := range [][]string{{"tool", "nosuch", "--json"}, {"tool", "nosuch"}} {
		var stdout, stderr bytes.Buffer
		code := RunContext(context.Background(), newTestCommand(func(context.Context, *cli.Command) error { return nil }),
			args, IO{Stdout: &stdout, Stderr: &stderr})
		out := stdout.String() + stderr.String()
		if code != clierr.ExitUsage || !strings.Contains(out, `unknown command \"nosuch\" (see tool --help)`) && !strings.Contains(out, `unknown command "nosuch" (see tool --help)`) {
			t.Errorf("%v: exit %d, output %q; want 2 and unknown command \"nosuch\"", args, code, out)
		}
	}
	var stdout bytes.Buffer
	ran := false
	code := RunContext(context.Background(), newTestCommand(func(context.Context, *cli.Command) error { ran = true; return nil }),
		[]string{"tool", "do"}, IO{Stdout: &stdout, Stderr: &stdout})
	if code != clierr.ExitOK || !ran {
		t.Errorf("a known command: exit %d, ran %v, output %q", code, ran, stdout.String())
	}
}
