package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
)

// agentsPart is part (a) on the test harness: one run fans out cfg.agents
// agents, cfg.concurrency at a time, each asked once (its session closes
// at once), as docs/patterns.md writes fan-out. Each reply takes
// cfg.agentDelay, so that the run lasts long enough for its memory and
// descriptors to show a trend.
func agentsPart(ctx context.Context, s *stack, rep *report, cfg config) error {
	var o echoOverride
	o.Agents.Echo.Test.Cases = []echoCase{{DelayMs: cfg.agentDelay.Milliseconds(), Reply: "{{prompt}}"}}
	ov, err := json.Marshal(o)
	if err != nil {
		return err
	}
	rep.add("agents", "reply delay", "%s per agent (test harness delayMs)", cfg.agentDelay)
	return fanout(ctx, s, rep, cfg, "agents", fanoutInput{ConfigID: "echo", Agents: cfg.agents, Turns: 1, Concurrency: cfg.concurrency}, string(ov))
}

// echoOverride is the --overrides document that sets the fanout
// workflow's test-harness script.
type echoOverride struct {
	Agents struct {
		Echo struct {
			Test struct {
				Cases []echoCase `json:"cases"`
			} `json:"test"`
		} `json:"echo"`
	} `json:"agents"`
}

type echoCase struct {
	DelayMs int64  `json:"delayMs"`
	Reply   string `json:"reply"`
}

// harnessBinaryVar names, per harness, the variable holding its real CLI.
var harnessBinaryVar = map[string]string{
	"claude-code": "STRATOS_TEST_CLAUDE",
	"codex":       "STRATOS_TEST_CODEX",
	"opencode":    "STRATOS_TEST_OPENCODE",
}

// realPart is part (a) on the real harnesses: per harness, one run with
// cfg.realAgents agents at work at once, each holding a conversation of
// cfg.realTurns turns with the fake model server.
func realPart(ctx context.Context, s *stack, rep *report, cfg config) error {
	for _, h := range cfg.harnesses {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		v, ok := harnessBinaryVar[h]
		if !ok {
			return fmt.Errorf("unknown harness %q (claude-code, codex or opencode)", h)
		}
		if os.Getenv(v) == "" {
			return fmt.Errorf("%s is not set: run `eval \"$(scripts/prepare-test-cache)\"` (scripts/soak does)", v)
		}
		in := fanoutInput{ConfigID: h, Agents: cfg.realAgents, Turns: cfg.realTurns, Concurrency: cfg.realAgents}
		if err := fanout(ctx, s, rep, cfg, "real-"+h, in, ""); err != nil {
			return err
		}
	}
	return nil
}
