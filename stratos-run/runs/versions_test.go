package runs

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
)

// testdata/events-v0.jsonl holds lines of version 0 of the event
// vocabulary (written before lines carried a version), kept from real
// runs; testdata/events-v1.jsonl holds the same events as version 1
// writers write them (errors as {code, message}, costs with their
// provenance). Records of both versions, and records mixing them, read
// alike.

// readVersions returns the lines of both files, in pairs: v0[i] and v1[i]
// are one event.
func readVersions(t *testing.T) (v0, v1 [][]byte) {
	t.Helper()
	read := func(name string) [][]byte {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
	}
	v0, v1 = read("events-v0.jsonl"), read("events-v1.jsonl")
	if len(v0) != len(v1) || len(v0) == 0 {
		t.Fatalf("%d lines of version 0, %d of version 1: want the same events", len(v0), len(v1))
	}
	return v0, v1
}

func writeEvents(t *testing.T, lines ...[]byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), EventsFile)
	if err := os.WriteFile(path, append(bytes.Join(lines, []byte("\n")), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// mixed is v0 and v1 interleaved: each event twice, once per version.
func mixed(v0, v1 [][]byte) [][]byte {
	var out [][]byte
	for i := range v0 {
		out = append(out, v0[i], v1[i])
	}
	return out
}

func TestEventTextReadsEveryVersionAlike(t *testing.T) {
	v0, v1 := readVersions(t)
	for i := range v0 {
		if a, b := EventText(v0[i]), EventText(v1[i]); a != b {
			t.Errorf("line %d reads\n%s\nin version 0 and\n%s\nin version 1", i+1, a, b)
		}
	}
	// An error reads as it did when errors were strings.
	var text strings.Builder
	for _, l := range v1 {
		text.WriteString(EventText(l) + "\n")
	}
	for _, want := range []string{
		`07:54:19.425 agent.invocation.completed agent-1 error="agent \"real\": harness claude-code: claude exited: signal: killed" errorCode=execution status=failed`,
		`07:57:12.972 agent.initialization.completed agent-1 errorCode=initialization status=failed`,
		`07:54:05.076 child worker 20261206T075404Z-9bf80c43 cancelled after 102ms: cancelled`,
		`07:54:27.879 child worker 20261206T075427Z-1d475f7f started by chaos 20261206T075427Z-ba312d69`,
	} {
		if !strings.Contains(text.String(), want+"\n") {
			t.Errorf("no line\n%s\nin\n%s", want, text.String())
		}
	}
}

func TestShowCountsEveryVersionAlike(t *testing.T) {
	v0, v1 := readVersions(t)
	count := func(lines [][]byte) (EventCounts, *UsageRollup) {
		t.Helper()
		u := &UsageRollup{}
		c, err := countEvents(writeEvents(t, lines...), u, newPhaseIndex())
		if err != nil {
			t.Fatal(err)
		}
		return c, u
	}
	c0, u0 := count(v0)
	c1, u1 := count(v1)
	if !reflect.DeepEqual(c0, c1) || !reflect.DeepEqual(u0, u1) {
		t.Errorf("version 0 counts %+v and rolls up %+v; version 1 %+v and %+v", c0, u0.Run, c1, u1.Run)
	}
	c, u := count(mixed(v0, v1))
	if c.Total != 52 || c.ByType[eventapi.TypeUsage] != 6 || c.ByType[eventapi.TypeModelCompleted] != 8 || c.ByType[unreadableType] != 0 {
		t.Errorf("counts of the mixed record: %+v", c)
	}
	// Three turns per version: Claude Code's reported $0.00075, Codex's and
	// OpenCode's priced $0.000225 each, 100 tokens in and 10 out each.
	want := Usage{Turns: 6, Tokens: Tokens{Input: 600, Output: 60},
		Cost: Cost{USD: 0.0024, Provenance: CostPriced, PricedTurns: 4}}
	if u.Run != want {
		t.Errorf("the mixed record rolls up to %+v, want %+v", u.Run, want)
	}
	if a := u.ByAgent["20261206T075427Z-ba312d69/agent-1"]; a == nil || a.Turns != 2 || a.Cost.Provenance != CostReported || a.Cost.USD != 0.0015 {
		t.Errorf("Claude Code's agent rolls up to %+v, want 2 turns, $0.0015 reported", a)
	}
}

func TestUsageAddsEveryVersionAlike(t *testing.T) {
	v0, v1 := readVersions(t)
	var u0, u1, both Usage
	for i := range v0 {
		u0.AddEvent(v0[i])
		u1.AddEvent(v1[i])
	}
	for _, l := range mixed(v0, v1) {
		both.AddEvent(l)
	}
	if u0 != u1 || both.Turns != 2*u0.Turns || both.Tokens.Total() != 660 || both.Cost.USD != 0.0024 {
		t.Errorf("version 0 adds up to %+v, version 1 to %+v, both to %+v", u0, u1, both)
	}
}

// Logs emits the lines of either version as they are recorded.
func TestLogsEmitsEveryVersionAsRecorded(t *testing.T) {
	v0, v1 := readVersions(t)
	s := newStore(t)
	r := begin(t, s, "20261202T170000Z-vers0001", "w", deadPID(t), t0)
	lines := mixed(v0, v1)
	if err := os.WriteFile(filepath.Join(r.Dir(), EventsFile), append(bytes.Join(lines, []byte("\n")), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	var got [][]byte
	opts := LogOptions{Unreadable: func(u UnreadableLine) error { t.Errorf("unreadable: %+v", u); return nil }}
	err := s.Logs(t.Context(), "20261202T170000Z-vers0001", opts, func(line []byte) error {
		got = append(got, bytes.Clone(line))
		return nil
	})
	if err != nil || !reflect.DeepEqual(got, lines) {
		t.Errorf("Logs emitted %d lines (%v), want the %d recorded", len(got), err, len(lines))
	}
}
