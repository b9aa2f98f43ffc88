package sdk

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/buildapi"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/hmacframe"
	"github.com/stratoscli/stratos/shared/procgroup"
	"github.com/stratoscli/stratos/shared/toolchain"
)

// Loading definitions costs mostly node's start and the SDK's and zod's
// import, not the workflow's own module. So one loader process loads many
// entries, one after the other, and reports each on its own framed line
// (see src/loader.ts). What one entry does stays its own:
//
//   - an entry that takes longer than the limit fails alone as timed out:
//     the loader is killed and a new one loads the entries after it;
//   - an entry whose module ends the process (process.exit, a crash) fails
//     alone with node's words, and a new loader goes on after it;
//   - every other failure in a shared process is confirmed by loading the
//     entry alone, so its error is exactly what a one-by-one load reports,
//     and an entry that failed only because it shared the process (two
//     modules registering one schema id, say) loads.

// ErrDefinitionTimeout marks the error of an entry that did not load within
// its limit.
var ErrDefinitionTimeout = errors.New("the definition did not load within its time limit")

// Loaded is one entry's result: its definition or why it failed.
type Loaded struct {
	Definition *Definition
	Err        error
}

// reportTag starts each report line of the loader (see shared/hmacframe).
const reportTag = "stratos-definition"

// maxReportLine bounds one line on the loader's report channel: a report
// carries one definition's JSON Schemas, far below it. It keeps a process
// that writes an endless line to the channel from growing the build's
// memory without end.
const maxReportLine = 64 << 20

// LoadDefinitions loads the definitions of compiledEntries (absolute, or
// relative to root) like LoadDefinition, in as few node processes as their
// failures allow, each entry within limit (zero: no limit but ctx's). The
// results are in the order of compiledEntries.
func LoadDefinitions(ctx context.Context, tc *toolchain.Toolchain, root string, compiledEntries []string, stderr io.Writer, limit time.Duration) []Loaded {
	return StartLoader(ctx, tc, root, stderr).Load(compiledEntries, limit)
}

// Loader loads definitions through root's SDK. StartLoader starts its
// first node process at once, before the entries exist: node's start and
// the SDK's import then overlap with the compile that produces them.
type Loader struct {
	ctx    context.Context
	tc     *toolchain.Toolchain
	root   string
	stderr io.Writer
	first  *loaderProcess // started ahead; nil once used
	err    error          // why no loader can start (the SDK is missing)
}

// StartLoader starts a loader process for a later Load; Close stops it
// when nothing is loaded after all.
func StartLoader(ctx context.Context, tc *toolchain.Toolchain, root string, stderr io.Writer) *Loader {
	l := &Loader{ctx: ctx, tc: tc, root: root, stderr: stderr}
	if _, err := os.Stat(LoaderPath(root)); err != nil {
		l.err = clierr.New(buildapi.CodeSDKNotInstalled, "the SDK is not installed in %s (%s is missing)", root, LoaderPath(root))
		return l
	}
	l.first, _ = l.spawn() // a failed start is retried (and reported) by Load
	return l
}

// Close stops the process started ahead, if Load did not use it. A nil
// Loader has nothing to close.
func (l *Loader) Close() {
	if l != nil && l.first != nil {
		l.first.kill()
		l.first = nil
	}
}

// Load loads the definitions of entries (absolute, or relative to the
// root), each within limit (zero: no limit but the context's). The first
// process is the one started ahead; after an entry that timed out or ended
// its process, a new one goes on. The results are in the order of entries.
func (l *Loader) Load(compiledEntries []string, limit time.Duration) []Loaded {
	out := make([]Loaded, len(compiledEntries))
	l.LoadEach(compiledEntries, limit, func(i int, r Loaded) { out[i] = r })
	return out
}

// LoadEach is Load handing each entry's result to settled (with the
// entry's index) as soon as it is final, so that the caller's work on a
// definition overlaps the loading of the next: a definition at once, a
// failure once it is confirmed alone (see above). settled is called once
// per entry, from the calling goroutine, in no set order.
func (l *Loader) LoadEach(compiledEntries []string, limit time.Duration, settled func(i int, r Loaded)) {
	defer l.Close()
	entries := make([]string, len(compiledEntries))
	for i, e := range compiledEntries {
		if !filepath.IsAbs(e) {
			e = filepath.Join(l.root, e)
		}
		entries[i] = e
	}
	out := make([]Loaded, len(entries))
	sent := make([]bool, len(entries))
	settleRest := func() {
		for i, r := range out {
			if !sent[i] {
				settled(i, r)
			}
		}
	}
	if l.err != nil {
		for i := range out {
			out[i].Err = l.err
		}
		settleRest()
		return
	}
	// A definition is final when it loads: only failures are confirmed.
	// With one entry, its failure is final too.
	early := func(i int) {
		if out[i].Err == nil || len(entries) == 1 {
			sent[i] = true
			settled(i, out[i])
		}
	}
	for done := 0; done < len(entries); {
		if l.ctx.Err() != nil {
			for i := done; i < len(entries); i++ {
				out[i].Err = interrupted(l.ctx, entries[i])
			}
			settleRest()
			return
		}
		base := done
		done += l.loadIn(entries[base:], out[base:], limit, func(k int) { early(base + k) })
	}
	if len(entries) > 1 {
		for i, r := range out {
			if r.Err != nil && !errors.Is(r.Err, ErrDefinitionTimeout) && l.ctx.Err() == nil {
				out[i] = LoadDefinitions(l.ctx, l.tc, l.root, entries[i:i+1], l.stderr, limit)[0]
			}
		}
	}
	settleRest()
}

func interrupted(ctx context.Context, entry string) error {
	return clierr.New(errcode.CodeInterrupted, "loading %s: %v", entry, ctx.Err()).Wrap(ctx.Err())
}

// loaderProcess is one running loader, waiting for its entries on stdin.
type loaderProcess struct {
	proc    *procgroup.Process
	stdin   io.WriteCloser
	key     []byte
	reports <-chan report
	tail    *tailBuffer
}

func (p *loaderProcess) kill() {
	p.stdin.Close()
	_ = p.proc.Signal(syscall.SIGKILL)
	_ = p.proc.Wait()
}

// report is one entry's result as the loader frames it.
type report struct {
	Index  int             `json:"index"`
	Result json.RawMessage `json:"result"`
}

// loadIn loads entries in one loader process (the one started ahead, else
// a new one) and fills out from its reports. It returns how many entries
// are settled: all of them, or up to and including the one that timed out
// or during which the loader stopped. Unsettled ones (after an
// interruption) are left for the caller. loaded is told the index of each
// entry whose report came in.
func (l *Loader) loadIn(entries []string, out []Loaded, limit time.Duration, loaded func(i int)) int {
	p := l.first
	l.first = nil
	if p == nil {
		var err error
		if p, err = l.spawn(); err != nil {
			out[0].Err = clierr.New(buildapi.CodeDefinitionLoadFailed, "%v", err).WithDetails(map[string]any{"entry": entries[0]})
			return 1
		}
	}
	invocation, _ := json.Marshal(map[string]any{"resultKey": hex.EncodeToString(p.key), "entries": entries})
	_, _ = p.stdin.Write(append(invocation, '\n')) // a loader that died early is reported below
	p.stdin.Close()
	forever := time.Duration(1<<63 - 1)
	if limit <= 0 {
		limit = forever
	}
	timer := time.NewTimer(limit)
	defer timer.Stop()
	next := 0
	for next < len(entries) {
		select {
		case rep, ok := <-p.reports:
			if !ok {
				return l.stopped(p, entries, out, next)
			}
			if rep.Index != next {
				continue // the loader reports in order; anything else is not its
			}
			out[next] = decodeResult(entries[next], rep.Result)
			loaded(next)
			next++
			timer.Reset(limit)
		case <-timer.C:
			p.kill()
			for range p.reports { // drain; what came in time was counted
			}
			out[next].Err = fmt.Errorf("load %s: %w", entries[next], ErrDefinitionTimeout)
			return next + 1
		}
	}
	_ = p.proc.Wait()
	return next
}

// stopped settles the entry the loader was at when its reports ended.
func (l *Loader) stopped(p *loaderProcess, entries []string, out []Loaded, next int) int {
	waitErr := p.proc.Wait()
	if l.ctx.Err() != nil {
		return next // the caller reports the interruption
	}
	out[next].Err = clierr.New(buildapi.CodeDefinitionLoadFailed, "node stopped (%v) before reporting the definition of %s: %s",
		waitErr, entries[next], strings.TrimSpace(p.tail.String())).WithDetails(map[string]any{"entry": entries[next]})
	return next + 1
}

// spawn starts node with the loader, which imports the SDK and then waits
// for its invocation on stdin. The tail of its stderr is kept for errors,
// and all of it is copied to l.stderr.
func (l *Loader) spawn() (*loaderProcess, error) {
	key, err := hmacframe.NewKey()
	if err != nil {
		return nil, fmt.Errorf("create the loader's report key: %w", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := l.tc.NodeCommand(l.ctx, LoaderPath(l.root))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		r.Close()
		w.Close()
		return nil, err
	}
	// One writer for both streams: exec then copies them through one pipe, so
	// the modules' interleaved stdout/stderr arrive in order and never race.
	tail := &tailBuffer{}
	both := io.MultiWriter(l.stderr, tail)
	cmd.Stdout, cmd.Stderr = both, both
	// The reports go to fd 3 (ExtraFiles[0]): stdout belongs to the
	// modules' own top-level output.
	cmd.ExtraFiles = []*os.File{w}
	// A module's top-level code may start processes of its own: the
	// watchdog takes them too when this process dies.
	proc, err := procgroup.Start(cmd, procgroup.Options{Watchdog: true})
	w.Close() // the child holds its own copy; EOF comes when it exits
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("start %s: %w", l.tc.Node, err)
	}
	reports := make(chan report, 64)
	go readReports(r, key, reports)
	return &loaderProcess{proc: proc, stdin: stdin, key: key, reports: reports, tail: tail}, nil
}

// readReports sends every validly framed report read from r, then closes
// reports and r at the end of the channel. Lines without a valid MAC are
// dropped.
func readReports(r *os.File, key []byte, reports chan<- report) {
	defer close(reports)
	defer r.Close()
	fr := hmacframe.NewReader(r, hmacframe.New(reportTag, key), maxReportLine)
	for {
		doc, err := fr.Next()
		if err != nil {
			return
		}
		var rep report
		if json.Unmarshal(doc, &rep) == nil {
			reports <- rep
		}
	}
}

// loaderError is the result the loader reports for an entry that failed.
type loaderError struct {
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Stack   string `json:"stack"`
	} `json:"error"`
}

// decodeResult turns one reported result into the entry's definition or
// error.
func decodeResult(entry string, doc []byte) Loaded {
	var failed loaderError
	if err := json.Unmarshal(doc, &failed); err == nil && failed.Error != nil {
		details := map[string]any{"entry": entry}
		if failed.Error.Stack != "" {
			details["stack"] = failed.Error.Stack
		}
		return Loaded{Err: clierr.New(failed.Error.Code, "%s", failed.Error.Message).WithDetails(details)}
	}
	var def Definition
	if err := json.Unmarshal(doc, &def); err != nil || len(def.Input) == 0 || len(def.Output) == 0 {
		return Loaded{Err: clierr.New(buildapi.CodeDefinitionLoadFailed, "the loader's report on %s is not a definition: %.200s", entry, doc)}
	}
	if def.Unrepresentable == nil {
		def.Unrepresentable = []Unrepresentable{}
	}
	return Loaded{Definition: &def}
}
