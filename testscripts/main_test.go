// Package testscripts holds the acceptance tests: testscript files
// (testdata/<area>/*.txtar) that drive the real Stratos binaries. TestMain
// links every tool's entry point into the test binary; testscript installs a
// copy per tool name in one directory on PATH, so the dispatcher finds its
// siblings next to itself exactly as in an installed release.
//
// Each area has its own Test function and testdata folder (see *_test.go),
// so areas can add script commands without touching each other.
package testscripts

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/stratoscli/stratos/shared/dispatch"
	"github.com/stratoscli/stratos/shared/fakemcp"
	jsonserve "github.com/stratoscli/stratos/shared/jsonvalidate/serve"
	agent "github.com/stratoscli/stratos/stratos-agent/command"
	build "github.com/stratoscli/stratos/stratos-build/command"
	discover "github.com/stratoscli/stratos/stratos-discover/command"
	models "github.com/stratoscli/stratos/stratos-models/command"
	run "github.com/stratoscli/stratos/stratos-run/command"
	"github.com/stratoscli/stratos/stratos-run/tracing/otlpexport"
	temporal "github.com/stratoscli/stratos/stratos-temporal/command"
	worktree "github.com/stratoscli/stratos/stratos-worktree/command"
	"github.com/stratoscli/stratos/testscripts/internal/httpprobe"
	"github.com/stratoscli/stratos/testscripts/internal/mcpdrive"
)

type mainFunc func(args []string) int

func TestMain(m *testing.M) {
	tools := map[string]mainFunc{
		"stratos":              func(a []string) int { return dispatch.Main(a, os.Stdout, os.Stderr) },
		"st":                   func(a []string) int { return dispatch.Main(a, os.Stdout, os.Stderr) },
		"stratos-discover":     func(a []string) int { return discover.Main(a, os.Stdin, os.Stdout, os.Stderr) },
		"stratos-build":        func(a []string) int { return build.Main(a, os.Stdin, os.Stdout, os.Stderr) },
		"stratos-run":          func(a []string) int { return run.Main(a, os.Stdin, os.Stdout, os.Stderr) },
		"stratos-agent":        func(a []string) int { return agent.Main(a, os.Stdin, os.Stdout, os.Stderr) },
		"stratos-worktree":     func(a []string) int { return worktree.Main(a, os.Stdin, os.Stdout, os.Stderr) },
		"stratos-models":       func(a []string) int { return models.Main(a, os.Stdin, os.Stdout, os.Stderr) },
		"stratos-temporal":     func(a []string) int { return temporal.Main(a, os.Stdin, os.Stdout, os.Stderr) },
		"stratos-run-otlp":     func(a []string) int { return otlpexport.Main(a, os.Stdin, os.Stdout, os.Stderr) },
		"stratos-run-validate": func(a []string) int { return jsonserve.Main(a, os.Stdin, os.Stdout, os.Stderr) },
		"mcpdrive":             func(a []string) int { return mcpdrive.Main(a, os.Stdout, os.Stderr) },
		"stratos-fakemcp":      func(a []string) int { return fakemcp.Main(a, os.Stdin, os.Stdout, os.Stderr) },
		"httpprobe":            func(a []string) int { return httpprobe.Main(a, os.Stdout, os.Stderr) },
	}
	cmds := make(map[string]func(), len(tools))
	for name, f := range tools {
		cmds[name] = func() { os.Exit(f(os.Args)) }
	}
	testscript.Main(m, cmds)
}

// params returns the common testscript setup for the scripts in
// testdata/<dir>: a private HOME (so ~/.stratos is the script's own), no
// inherited Stratos configuration, and the shared toolchain cache when
// scripts/test prepared one.
func params(t *testing.T, dir string) testscript.Params {
	// The areas run beside each other, not one after another: -parallel
	// still bounds how many scripts run at once, but the last slow script
	// of an area no longer leaves the other slots idle until it ends.
	t.Parallel()
	return testscript.Params{
		Dir:                 filepath.Join("testdata", dir),
		RequireExplicitExec: false,
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			recordDuration(env, dir)
			env.Setenv("HOME", home)
			env.Setenv("USERPROFILE", home)
			env.Setenv("NO_COLOR", "1")
			env.Setenv("GOOS_GOARCH", runtime.GOOS+"_"+runtime.GOARCH)
			env.Setenv("GORACE", raceOptions(os.Getenv("GORACE")))
			for _, k := range []string{"STRATOS_TOOLCHAIN_DIR", "STRATOS_NODE", "STRATOS_TEST_CACHE", "npm_config_cache"} {
				if v := os.Getenv(k); v != "" {
					env.Setenv(k, v)
				}
			}
			return nil
		},
	}
}

// raceOptions are the race detector's options for the tools a script
// runs: this test binary, built with -race, started again as each tool.
// The detector sleeps a second before every such process exits
// (atexit_sleep_ms, 1000 by default) so that goroutines still running can
// report; a run of a workflow starts a dozen of these processes one after
// another, so that second was most of many scripts' time. Races are still
// detected and reported as they happen; only one that would first happen
// in the last second of a tool's life may be missed. Options the caller
// set come after, so they win.
func raceOptions(caller string) string {
	return strings.TrimSpace("atexit_sleep_ms=0 " + caller)
}

// recordDuration appends "<dir>/<script> <seconds>" to the file named by
// $STRATOS_TEST_TIMINGS when the script ends, so that scripts/test can list
// the slowest scripts (what to trim when the suite grows too slow).
func recordDuration(env *testscript.Env, dir string) {
	path := os.Getenv("STRATOS_TEST_TIMINGS")
	if path == "" {
		return
	}
	start := time.Now()
	name := strings.TrimPrefix(filepath.Base(env.WorkDir), "script-")
	env.Defer(func() {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return
		}
		defer f.Close()
		fmt.Fprintf(f, "%s/%s %.0f\n", dir, name, time.Since(start).Seconds())
	})
}
