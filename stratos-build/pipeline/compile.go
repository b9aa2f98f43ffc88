package pipeline

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"regexp"
	"strconv"
	"strings"

	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/procgroup"
	"github.com/stratoscli/stratos/shared/toolchain"
)

// compile type-checks and compiles the workflow's entrypoint and its import
// closure with the pinned tsc and explicit flags (never a tsconfig). The
// discovery root is rootDir, so <root>/<wf>/x.ts lands in <wf>/dist/<wf>/x.js
// and the wrapper <root>/.generated/c.ts in <wf>/dist/.generated/c.js:
// relative imports keep working in the compiled tree.
//
// The output goes to outDir, the build's staging directory, which is new
// and empty: nothing compiled from a since-deleted source can survive.
//
// started, when not nil, is called once tsc runs (see runCompiler).
func (b *Builder) compile(ctx context.Context, w *discovery.Workflow, entry, outDir string, started func()) *Result {
	b.enter(PhaseToolchain, w)
	tc, err := b.toolchain(ctx)
	if err != nil {
		return failed(w, ReasonToolchain, errorDiagnostic(err))
	}
	b.enter(PhaseCompile, w)
	b.Log.Info("compiling", "workflow", w.Manifest.Name)
	args := CompilerArgs(tc, b.Root.Root.Dir, outDir, []string{entry})
	cmd := exec.CommandContext(ctx, tc.Tsc, args...)
	cmd.Dir = b.Root.Root.Dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = runCompiler(cmd, started)
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		// What a compiler killed mid-way wrote goes with the staging
		// directory.
		return failed(w, ReasonInternal, message("interrupted while compiling"))
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return failed(w, ReasonToolchain, message("run %s: %v", tc.Tsc, err))
	}
	diags := parseTscOutput(out.String())
	if len(diags) == 0 {
		diags = []Diagnostic{message("tsc exited with status %d: %s", exit.ExitCode(), strings.TrimSpace(out.String()))}
	}
	return failed(w, ReasonTypeErrors, diags...)
}

// runCompiler runs tsc (in compilerEnv) and calls started, when not nil,
// as soon as tsc is running. The compile is what the build waits for
// longest: whatever may start beside it (the definition loader's node)
// starts after it, so that no process start delays tsc.
func runCompiler(cmd *exec.Cmd, started func()) error {
	cmd.Env = compilerEnv(cmd.Environ())
	p, err := procgroup.Start(cmd, procgroup.Options{})
	if err != nil {
		return err
	}
	if started != nil {
		started()
	}
	return p.Wait()
}

// CompilerArgs are tsc's arguments for compiling entries into outDir: the
// pinned flags, plus the toolchain's @types directory, the mirrored
// layout's rootDir/outDir and the scheduling flags (schedulingFlags).
func CompilerArgs(tc *toolchain.Toolchain, root, outDir string, entries []string) []string {
	args := append(outputArgs(tc, root, outDir), schedulingFlags(len(entries))...)
	return append(args, entries...)
}

// outputArgs are the arguments that decide what tsc writes and reports: the
// pinned flags, the @types directory and the mirrored layout.
func outputArgs(tc *toolchain.Toolchain, root, outDir string) []string {
	args := append([]string{}, toolchain.CompilerFlags...)
	return append(args, "--typeRoots", tc.TypeRoots, "--rootDir", root, "--outDir", outDir, "--pretty", "false")
}

// maxOneChecker is the most entrypoints tsc type-checks on one thread.
// tsc checks on several threads by default; for a small program they cost
// more CPU than they save time, and they take the core the build's node
// loader needs, which runs beside the compile. Parsing stays on several
// threads: over the three entrypoints of a chain, tsc with its collector
// off took 181 ms of wall time and 284 ms of CPU with one checker, 268 ms
// and 262 ms fully single-threaded (--singleThreaded, what builds used
// before), 202 ms and 361 ms by default; a leaf edit's rebuild was 12-18 ms
// faster with one checker than single-threaded, a cold build of 20 workflows
// 20 ms (docs/performance.md, "Targeted rebuilds").
const maxOneChecker = 20

// schedulingFlags are the flags that choose how tsc uses the cores for a
// program of n entrypoints. They change how tsc works, not what it writes
// or reports (scheduling_test.go), so they are not part of the freshness
// key, which holds the pinned flags only.
func schedulingFlags(n int) []string {
	if n <= maxOneChecker {
		return []string{"--checkers", "1"}
	}
	return nil
}

var tscLine = regexp.MustCompile(`^(.+)\((\d+),(\d+)\): error (TS\d+): `)

// parseTscOutput turns tsc's non-pretty output into diagnostics, keeping
// each message verbatim (file(line,col): error TSnnnn: text, with any
// continuation lines).
func parseTscOutput(s string) []Diagnostic {
	var out []Diagnostic
	for _, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if line == "" {
			continue
		}
		if m := tscLine.FindStringSubmatch(line); m != nil {
			l, _ := strconv.Atoi(m[2])
			c, _ := strconv.Atoi(m[3])
			out = append(out, Diagnostic{Message: line, File: m[1], Line: l, Column: c, Code: m[4]})
			continue
		}
		if len(out) > 0 && (strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")) {
			out[len(out)-1].Message += "\n" + line
			continue
		}
		out = append(out, Diagnostic{Message: line})
	}
	return out
}
