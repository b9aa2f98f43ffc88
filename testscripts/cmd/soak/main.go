// Command soak is the Go half of scripts/soak: it runs Stratos under load
// and faults and reports what it saw. scripts/soak builds the binaries and
// this command, prepares the test toolchain and a temporary work
// directory, and runs
//
//	soak -bin DIR -work DIR [flags] part...
//
// with parts agents (1,000 test-harness agents in one run), real (50
// agents at once on each real harness CLI against the fake model server),
// backtoback (500 runs one after another), chaos (kill -9 of a random
// process of a run's tree, N times, then checks), all (the four) and smoke
// (agents, backtoback and chaos with small counts). Progress goes to
// stderr, the summary table to stdout. Exit 0 when no fault was found, 1
// when one was, 2 for usage errors, 130 when interrupted.
//
// Everything runs under -work: a project with the soak's workflows, a
// private HOME (the user's ~/.stratos is never touched), TMPDIR; the fake
// model server listens on 127.0.0.1 only and is the only model any harness
// is pointed at. Every process the soak starts carries STRATOS_SOAK=<work>
// in its environment, and each run STRATOS_SOAK_RUN=<name>, so that /proc
// scans (shared/proctest) find a run's processes wherever they were
// reparented; at the end, or at Ctrl-C, whatever holds the first is
// killed.
//
// Started as stratos-fakemcp (a link to it), it is the stdio MCP server of
// the chaos workflow (shared/fakemcp).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/stratoscli/stratos/shared/fakemcp"
)

func main() {
	if filepath.Base(os.Args[0]) == "stratos-fakemcp" {
		os.Exit(fakemcp.Main(os.Args, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// partFuncs are the parts, in the order `all` runs them.
var partFuncs = []struct {
	name string
	run  func(context.Context, *stack, *report, config) error
}{
	{"agents", agentsPart},
	{"real", realPart},
	{"backtoback", backToBack},
	{"chaos", chaosPartRun},
}

func run(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseArgs(args, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "soak:", err)
		return 2
	}
	if cfg.check {
		return 0
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, err := newStack(cfg.bin, cfg.work, cfg, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "soak:", err)
		return 1
	}
	// Whatever happens, nothing the soak started outlives it.
	defer killMarked(s.marker)
	defer s.close()
	rep := &report{log: stderr}
	code := 0
	if err := s.build(); err != nil {
		fmt.Fprintln(stderr, "soak:", err)
		return 1
	}
	for _, p := range partFuncs {
		if !cfg.has(p.name) {
			continue
		}
		if err := p.run(ctx, s, rep, cfg); err != nil && !errors.Is(err, context.Canceled) {
			fmt.Fprintf(stderr, "soak: %s: %v\n", p.name, err)
			code = 1
		}
		if ctx.Err() != nil {
			break
		}
	}
	rep.write(stdout)
	switch {
	case ctx.Err() != nil:
		fmt.Fprintln(stderr, "soak: interrupted; the table holds what ran")
		return 130
	case len(rep.faults) > 0:
		return 1
	}
	return code
}
