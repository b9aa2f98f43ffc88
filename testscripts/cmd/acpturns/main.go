// Command acpturns is the Go side of scripts/bench-acp: Stratos's ACP kit,
// through the gemini adapter as the agent host builds it, drives
// `gemini --acp` for a number of turns on one session and prints what it
// measured as one JSON line. Its counterpart is the official ACP
// TypeScript SDK driving the same CLI (scripts/lib/acp-sdk-turns.mjs).
//
//	acpturns -turns N -warmup W -dir WORKDIR -state STATEDIR
//
// The CLI, the fake Gemini API and its key come from the environment as
// the agent host gets them (STRATOS_GEMINI, GOOGLE_GEMINI_BASE_URL,
// GEMINI_API_KEY). The first turn (the CLI's start, initialize,
// authenticate, session/new and one prompt) is timed apart, W more turns
// are not timed (the CLI's first prompts are slow while node compiles
// its bundle's code paths), then N turns are; the driver's
// peak RSS (VmHWM) is its own, without the CLI's.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/procgroup"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/catalog"
	"github.com/stratoscli/stratos/stratos-agent/adapters/gemini"
)

// SystemPrompt is the system prompt both drivers give the CLI.
const SystemPrompt = "You are a benchmark agent."

// report is the JSON line the driver prints.
type report struct {
	Lat     []float64 `json:"lat"`
	FirstMs float64   `json:"firstMs"`
	// CPUMs is the driver's own CPU time (user + system) per timed turn.
	CPUMs float64 `json:"cpuMs"`
	// ScanMs is the median time of one scan of the process table as the
	// kit makes after each turn (procgroup.NoteSessions, to note a tool
	// left running in the background), timed apart after the turns: the
	// part of a turn's time a driver without that check does not spend.
	ScanMs float64 `json:"scanMs"`
	PeakKB int     `json:"peakKB"`
}

func main() {
	turns := flag.Int("turns", 20, "timed turns after the warm-up")
	warmup := flag.Int("warmup", 5, "untimed turns after the first")
	dir := flag.String("dir", "", "the agent's working directory")
	state := flag.String("state", "", "the agent's state directory (the CLI's private home goes there)")
	model := flag.String("model", "google/gemini-2.5-flash", "the agent's model")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the timed turns to this file")
	flag.Parse()
	if *dir == "" || *state == "" || *turns < 1 || *warmup < 0 {
		fmt.Fprintln(os.Stderr, "usage: acpturns -turns N -warmup W -dir WORKDIR -state STATEDIR")
		os.Exit(2)
	}
	spec := adapter.Spec{Name: "bench", Models: []string{*model}, SystemPrompt: SystemPrompt,
		WorkingDirectory: *dir, StateDir: *state}
	r, err := run(context.Background(), spec, *turns, *warmup, *profile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "acpturns:", err)
		os.Exit(1)
	}
	if err := json.NewEncoder(os.Stdout).Encode(r); err != nil {
		fmt.Fprintln(os.Stderr, "acpturns:", err)
		os.Exit(1)
	}
}

// run starts the session, takes the first turn, warmup untimed ones and
// then turns timed ones.
func run(ctx context.Context, spec adapter.Spec, turns, warmup int, profile string) (report, error) {
	a, err := gemini.NewFactory(gemini.Options{Catalog: nativeCatalog{}})(spec, func(adapter.Event) {}, noHooks{})
	if err != nil {
		return report{}, err
	}
	defer a.Close(context.Background())
	start := time.Now()
	if err := a.Initialize(ctx); err != nil {
		return report{}, err
	}
	if err := turn(ctx, a, "turn 0"); err != nil {
		return report{}, err
	}
	r := report{FirstMs: ms(time.Since(start)), Lat: make([]float64, 0, turns)}
	for i := 1; i <= warmup; i++ {
		if err := turn(ctx, a, "warm-up "+strconv.Itoa(i)); err != nil {
			return report{}, err
		}
	}
	if profile != "" {
		stop, err := startProfile(profile)
		if err != nil {
			return report{}, err
		}
		defer stop()
	}
	cpu0 := cpuTime()
	for i := 1; i <= turns; i++ {
		t0 := time.Now()
		if err := turn(ctx, a, "turn "+strconv.Itoa(i)); err != nil {
			return report{}, err
		}
		r.Lat = append(r.Lat, ms(time.Since(t0)))
	}
	r.CPUMs = ms(cpuTime()-cpu0) / float64(turns)
	r.ScanMs = scanTime()
	r.PeakKB, err = peakKB()
	return r, err
}

// turn is one prompt whose reply must have text, as the fake API answers.
func turn(ctx context.Context, a adapter.Adapter, prompt string) error {
	res, err := a.Execute(ctx, prompt)
	if err != nil {
		return fmt.Errorf("%s: %w", prompt, err)
	}
	if strings.TrimSpace(res.Text) == "" {
		return fmt.Errorf("%s: the reply has no text", prompt)
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// scanTime is the median of 15 scans of the process table, as the kit's
// check for background work after each turn makes one.
func scanTime() float64 {
	t := make([]float64, 15)
	for i := range t {
		t0 := time.Now()
		procgroup.NoteSessions(os.Getpid())
		t[i] = ms(time.Since(t0))
	}
	slices.Sort(t)
	return t[len(t)/2]
}

// startProfile starts a CPU profile into file; stop ends it.
func startProfile(file string) (stop func(), err error) {
	f, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// cpuTime is the process's own CPU time (user + system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakKB is the process's own peak resident set (VmHWM).
func peakKB() (int, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
	return 0, errors.New("no VmHWM in /proc/self/status")
}

// nativeCatalog answers a model with its ID's last segment as the CLI's
// model (the bench needs no catalog lookup: both drivers pass the same
// --model).
type nativeCatalog struct{}

func (nativeCatalog) Candidates(_ context.Context, q catalog.Query) ([]catalog.Candidate, error) {
	out := make([]catalog.Candidate, len(q.Models))
	for i, m := range q.Models {
		native := m[strings.LastIndex(m, "/")+1:]
		out[i] = catalog.Candidate{Harness: gemini.Harness, Model: m, Provider: "google", NativeID: native, Native: catalog.Native{Model: native}}
	}
	return out, nil
}

// noHooks: the agent has no tool hooks, as an agent without
// beforeToolCall or afterToolCall.
type noHooks struct{}

func (noHooks) BeforeToolCall(context.Context, adapter.ToolCall) (agentproto.BeforeToolCallResult, error) {
	return agentproto.BeforeToolCallResult{Action: "allow"}, nil
}

func (noHooks) AfterToolCall(context.Context, adapter.ToolCall, json.RawMessage, *agentproto.ToolError) (agentproto.AfterToolCallResult, error) {
	return agentproto.AfterToolCallResult{}, nil
}

func (noHooks) HasToolHooks() bool { return false }
