package pipeline

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/procgroup"
	"github.com/stratoscli/stratos/shared/toolchain"
)

// compiler is the build's compile stage: it runs the pinned tsc with
// explicit flags (never a tsconfig) over workflows prepared up to
// compiling, into their staging directories. A workflow is compiled alone
// (one); the workflows of a batch share runs where that changes nothing
// (shared, see batch.go).
type compiler struct {
	rootDir  string
	log      hclog.Logger
	tools    *toolchainSource
	progress *progress
	steps    *stepTimes
}

// one type-checks and compiles the workflow's entrypoint and its import
// closure. The discovery root is rootDir, so <root>/<wf>/x.ts lands in
// <wf>/dist/<wf>/x.js and the wrapper <root>/.generated/c.ts in
// <wf>/dist/.generated/c.js: relative imports keep working in the compiled
// tree.
//
// The output goes to outDir, the build's staging directory, which is new
// and empty: nothing compiled from a since-deleted source can survive.
//
// started, when not nil, is called once tsc runs (see runCompiler).
func (c *compiler) one(ctx context.Context, w *discovery.Workflow, entry, outDir string, started func()) *Result {
	c.progress.enter(ctx, PhaseToolchain, w)
	tc, err := c.tools.get(ctx)
	if err != nil {
		return failed(w, ReasonToolchain, errorDiagnostic(err))
	}
	c.progress.enter(ctx, PhaseCompile, w)
	c.log.Info("compiling", "workflow", w.Manifest.Name)
	args := CompilerArgs(tc, c.rootDir, outDir, []string{entry})
	cmd := exec.CommandContext(ctx, tc.Tsc, args...)
	cmd.Dir = c.rootDir
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

// shared compiles jobs together when they are several, else alone, and
// sets each job's failure. When a shared run fails on type errors, the
// jobs whose closure holds a file with an error are compiled alone (for
// their own, verbatim diagnostics) and the others together again, once;
// after that, alone. started is called each time a compiler runs (see
// runCompiler).
func (c *compiler) shared(ctx context.Context, jobs []*job, started func()) {
	c.sharedOrAlone(ctx, jobs, true, started)
}

func (c *compiler) sharedOrAlone(ctx context.Context, jobs []*job, retry bool, started func()) {
	if len(jobs) >= 2 {
		ok, errorFiles := c.together(ctx, jobs, started)
		if ok || ctx.Err() != nil {
			return
		}
		if retry && len(errorFiles) > 0 {
			var suspects, clean []*job
			for _, j := range jobs {
				if j.touches(errorFiles) {
					suspects = append(suspects, j)
				} else {
					clean = append(clean, j)
				}
			}
			if len(clean) > 0 && len(suspects) > 0 {
				c.alone(ctx, suspects, started)
				c.sharedOrAlone(ctx, clean, false, started)
				return
			}
		}
	}
	c.alone(ctx, jobs, started)
}

// alone compiles each job in its own tsc run.
func (c *compiler) alone(ctx context.Context, jobs []*job, started func()) {
	for _, j := range jobs {
		if ctx.Err() != nil {
			return
		}
		j.fail = c.one(ctx, j.w, j.entry, j.out.dir, started)
	}
}

// together compiles every job in one tsc run into a scratch directory and
// moves each job's closure into its staging directory (emit.go). It
// reports false when the run failed, with the root-relative files tsc
// reported errors in.
func (c *compiler) together(ctx context.Context, jobs []*job, started func()) (bool, map[string]bool) {
	c.progress.enter(ctx, PhaseToolchain, jobs[0].w)
	tc, err := c.tools.get(ctx)
	if err != nil {
		return false, nil
	}
	c.progress.enter(ctx, PhaseCompile, jobs[0].w)
	root := c.rootDir
	removeGlob(filepath.Join(root, batchPrefix+"*")) // left by a killed build
	scratch, err := os.MkdirTemp(root, batchPrefix)
	if err != nil {
		return false, nil
	}
	defer os.RemoveAll(scratch)
	names := make([]string, len(jobs))
	entries := make([]string, len(jobs))
	for i, j := range jobs {
		names[i], entries[i] = j.w.Manifest.Name, j.entry
	}
	args := CompilerArgs(tc, root, scratch, entries)
	c.log.Info("compiling", "workflows", strings.Join(names, ","))
	cmd := exec.CommandContext(ctx, tc.Tsc, args...)
	cmd.Dir = root
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	tscDone := c.steps.start("tsc")
	err = runCompiler(cmd, started)
	tscDone()
	if err != nil {
		if ctx.Err() != nil {
			return false, nil
		}
		c.log.Debug("shared compiler run failed; compiling apart", "error", err)
		files := map[string]bool{}
		for _, d := range parseTscOutput(out.String()) {
			if d.File != "" {
				files[filepath.ToSlash(d.File)] = true
			}
		}
		return false, files
	}
	defer c.steps.start("place emitted")()
	closures := make([][]string, len(jobs))
	for i, j := range jobs {
		closures[i] = j.closure
	}
	files := emittedBy(closures)
	for _, j := range jobs {
		if err := files.place(scratch, j.out.dir, j.closure); err != nil {
			j.fail = failed(j.w, ReasonInternal, message("%v", err))
		}
	}
	return true, nil
}

// batchPrefix names the directory a shared compiler run writes into.
const batchPrefix = ".stratos-batch-"

func removeGlob(pattern string) {
	old, _ := filepath.Glob(pattern)
	for _, p := range old {
		_ = os.RemoveAll(p)
	}
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
