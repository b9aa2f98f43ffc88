package main

import (
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseArgsTakesPartsAndFlagsInAnyOrder(t *testing.T) {
	c, err := parseArgs([]string{"-bin", "/b", "chaos", "--kills", "10", "--seed=42", "-work", "/w", "backtoback", "--kinds", "node,mcp-server"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.bin != "/b" || c.work != "/w" || c.kills != 10 || c.seed != 42 || !slices.Equal(c.parts, []string{"chaos", "backtoback"}) {
		t.Errorf("config = %+v", c)
	}
	if !slices.Equal(c.kinds, []Kind{KindNode, KindMCP}) {
		t.Errorf("kinds = %v", c.kinds)
	}
	if !c.has("chaos") || !c.has("backtoback") || c.has("agents") || c.has("real") {
		t.Errorf("parts: %v", c.parts)
	}
}

func TestParseArgsSmokeAndAll(t *testing.T) {
	c, err := parseArgs([]string{"-bin", "/b", "-work", "/w", "smoke", "--kills", "4"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	// smoke's counts, but not over a flag given.
	if c.agents != 20 || c.concurrency != 10 || c.runs != 5 || c.kills != 4 {
		t.Errorf("smoke: agents %d, concurrency %d, runs %d, kills %d", c.agents, c.concurrency, c.runs, c.kills)
	}
	if !c.has("agents") || !c.has("backtoback") || !c.has("chaos") || c.has("real") {
		t.Error("smoke runs agents, backtoback and chaos")
	}
	if c.seed == 0 {
		t.Error("no seed drawn")
	}
	c, err = parseArgs([]string{"-bin", "/b", "-work", "/w", "all"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.agents != 1000 || c.realAgents != 50 || c.runs != 500 || c.kills != 50 || c.window != 8*time.Second || c.interval != 250*time.Millisecond {
		t.Errorf("all's defaults: %+v", c)
	}
	for _, p := range []string{"agents", "real", "backtoback", "chaos"} {
		if !c.has(p) {
			t.Errorf("all does not run %s", p)
		}
	}
	if c.maxConcurrent() != 50 {
		t.Errorf("maxConcurrent = %d, want 50", c.maxConcurrent())
	}
}

func TestCheckOnlyParses(t *testing.T) {
	var stderr strings.Builder
	if code := run([]string{"-check", "-bin", "/nonexistent", "-work", "/nonexistent", "chaos"}, io.Discard, &stderr); code != 0 {
		t.Errorf("-check exited %d: %s", code, stderr.String())
	}
	if code := run([]string{"-check", "-bin", "/b", "-work", "/w", "choas"}, io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), `unknown part "choas"`) {
		t.Errorf("-check of a misspelt part exited %d: %s", code, stderr.String())
	}
}

func TestParseArgsRefuses(t *testing.T) {
	for _, args := range [][]string{
		{"-bin", "/b", "-work", "/w"},
		{"-bin", "/b", "-work", "/w", "soak"},
		{"-work", "/w", "chaos"},
		{"-bin", "/b", "-work", "/w", "chaos", "--kills", "0"},
		{"-bin", "/b", "-work", "/w", "chaos", "--kinds", "node,init"},
		{"-bin", "/b", "-work", "/w", "chaos", "--no-such-flag", "1"},
	} {
		if _, err := parseArgs(args, io.Discard); err == nil {
			t.Errorf("parseArgs(%s) accepted", strings.Join(args, " "))
		}
	}
}
