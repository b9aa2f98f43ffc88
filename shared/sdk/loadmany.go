package sdk

import (
	"bufio"
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
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

// frameKeySize is the size of a loader process's report key in bytes.
const frameKeySize = 32

// framePrefix starts each report line of the loader.
const framePrefix = "stratos-definition "

// LoadDefinitions loads the definitions of compiledEntries (absolute, or
// relative to root) like LoadDefinition, in as few node processes as their
// failures allow, each entry within limit (zero: no limit but ctx's). The
// results are in the order of compiledEntries.
func LoadDefinitions(ctx context.Context, tc *toolchain.Toolchain, root string, compiledEntries []string, stderr io.Writer, limit time.Duration) []Loaded {
	entries := make([]string, len(compiledEntries))
	for i, e := range compiledEntries {
		if !filepath.IsAbs(e) {
			e = filepath.Join(root, e)
		}
		entries[i] = e
	}
	out := make([]Loaded, len(entries))
	loader := LoaderPath(root)
	if _, err := os.Stat(loader); err != nil {
		for i := range out {
			out[i].Err = clierr.New(buildapi.CodeSDKNotInstalled, "the SDK is not installed in %s (%s is missing)", root, loader)
		}
		return out
	}
	l := &loaderRun{ctx: ctx, tc: tc, loader: loader, stderr: stderr, limit: limit}
	for done := 0; done < len(entries); {
		if ctx.Err() != nil {
			for i := done; i < len(entries); i++ {
				out[i].Err = interrupted(ctx, entries[i])
			}
			return out
		}
		done += l.run(entries[done:], out[done:])
	}
	if len(entries) > 1 {
		for i, r := range out {
			if r.Err != nil && !errors.Is(r.Err, ErrDefinitionTimeout) && ctx.Err() == nil {
				out[i] = LoadDefinitions(ctx, tc, root, entries[i:i+1], stderr, limit)[0]
			}
		}
	}
	return out
}

func interrupted(ctx context.Context, entry string) error {
	return clierr.New(errcode.CodeInterrupted, "loading %s: %v", entry, ctx.Err()).Wrap(ctx.Err())
}

// loaderRun starts loader processes for one LoadDefinitions call.
type loaderRun struct {
	ctx    context.Context
	tc     *toolchain.Toolchain
	loader string
	stderr io.Writer
	limit  time.Duration
}

// report is one entry's result as the loader frames it.
type report struct {
	Index  int             `json:"index"`
	Result json.RawMessage `json:"result"`
}

// run starts one loader for entries and fills out from its reports. It
// returns how many entries are settled: all of them, or up to and including
// the one that timed out or during which the loader stopped. Unsettled ones
// (after an interruption) are left for the caller.
func (l *loaderRun) run(entries []string, out []Loaded) int {
	key := make([]byte, frameKeySize)
	if _, err := rand.Read(key); err != nil {
		out[0].Err = clierr.New(buildapi.CodeDefinitionLoadFailed, "create the loader's report key: %v", err)
		return 1
	}
	proc, reports, tail, err := l.start(entries, key)
	if err != nil {
		out[0].Err = clierr.New(buildapi.CodeDefinitionLoadFailed, "%v", err).WithDetails(map[string]any{"entry": entries[0]})
		return 1
	}
	next := 0
	timer := l.newTimer()
	defer timer.Stop()
	for next < len(entries) {
		select {
		case rep, ok := <-reports:
			if !ok {
				return l.stopped(proc, entries, out, next, tail)
			}
			if rep.Index != next {
				continue // the loader reports in order; anything else is not its
			}
			out[next] = decodeResult(entries[next], rep.Result)
			next++
			timer.Reset(l.limitOrForever())
		case <-timer.C:
			_ = proc.Signal(syscall.SIGKILL)
			_ = proc.Wait()
			for range reports { // drain; what came in time was counted
			}
			out[next].Err = fmt.Errorf("load %s: %w", entries[next], ErrDefinitionTimeout)
			return next + 1
		}
	}
	_ = proc.Wait()
	return next
}

// stopped settles the entry the loader was at when its reports ended.
func (l *loaderRun) stopped(proc *procgroup.Process, entries []string, out []Loaded, next int, tail *tailBuffer) int {
	waitErr := proc.Wait()
	if l.ctx.Err() != nil {
		return next // the caller reports the interruption
	}
	out[next].Err = clierr.New(buildapi.CodeDefinitionLoadFailed, "node stopped (%v) before reporting the definition of %s: %s",
		waitErr, entries[next], strings.TrimSpace(tail.String())).WithDetails(map[string]any{"entry": entries[next]})
	return next + 1
}

func (l *loaderRun) limitOrForever() time.Duration {
	if l.limit > 0 {
		return l.limit
	}
	return time.Duration(1<<63 - 1)
}

func (l *loaderRun) newTimer() *time.Timer { return time.NewTimer(l.limitOrForever()) }

// start runs node with the loader, sends it entries and key on stdin and
// returns its reports (closed when the channel ends) and the tail of its
// stderr, which is also copied to l.stderr.
func (l *loaderRun) start(entries []string, key []byte) (*procgroup.Process, <-chan report, *tailBuffer, error) {
	invocation, err := json.Marshal(map[string]any{"resultKey": hex.EncodeToString(key), "entries": entries})
	if err != nil {
		return nil, nil, nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, nil, err
	}
	cmd := l.tc.NodeCommand(l.ctx, l.loader)
	cmd.Stdin = bytes.NewReader(append(invocation, '\n'))
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
		return nil, nil, nil, fmt.Errorf("start %s: %w", l.tc.Node, err)
	}
	reports := make(chan report, len(entries))
	go readReports(r, key, reports)
	return proc, reports, tail, nil
}

// readReports sends every validly framed report read from r, then closes
// reports and r at the end of the channel. Lines without a valid MAC are
// dropped.
func readReports(r *os.File, key []byte, reports chan<- report) {
	defer close(reports)
	defer r.Close()
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if doc, ok := unframe(key, line); ok {
			var rep report
			if json.Unmarshal(doc, &rep) == nil {
				reports <- rep
			}
		}
		if err != nil {
			return
		}
	}
}

// unframe returns the document of a report line framed under key, and false
// for anything else. The frame may follow other bytes on its line (a module
// that left a partial line on the channel), so the last prefix counts.
func unframe(key, line []byte) ([]byte, bool) {
	line = bytes.TrimRight(line, "\r\n")
	i := bytes.LastIndex(line, []byte(framePrefix))
	if i < 0 {
		return nil, false
	}
	macHex, doc, ok := bytes.Cut(line[i+len(framePrefix):], []byte(" "))
	if !ok {
		return nil, false
	}
	got, err := hex.DecodeString(string(macHex))
	if err != nil {
		return nil, false
	}
	mac := hmac.New(sha256.New, key)
	mac.Write(doc)
	return doc, hmac.Equal(got, mac.Sum(nil))
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
