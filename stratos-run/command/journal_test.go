package command

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/contract/journalapi"
	"github.com/stratoscli/stratos/shared/contract/runapi"
)

// A resumed journal of its header alone (the run ended before its first
// call) reaches the runtime as an empty list, which it iterates; null made
// it throw, and the run never ended.
func TestReplaySourceOfAHeaderOnlyJournalIsAList(t *testing.T) {
	r := &resumption{from: "20261206T000000Z-aaaa0001", journal: &journalapi.Journal{}}
	b, err := json.Marshal(r.source())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"entries":[]`) {
		t.Fatalf("replay source = %s, want an empty entries list", b)
	}
}

// The worker's stratos run of a resumed Temporal run gets runs resume's
// --strict and what the chain spent with the journal: the journal's
// header is compared with --strict as on a local resume, and the budget
// counts the chain.
func TestReplayedTakesStrictAndCarried(t *testing.T) {
	file := filepath.Join(t.TempDir(), "journal.jsonl")
	header := `{"v":1,"kind":"header","at":"2026-12-07T00:00:00Z","header":{"executionId":"20261207T000000Z-0a0b0c0d","workflow":"steps","buildKeys":{"steps":"old"},"inputSha256":""}}` + "\n"
	if err := os.WriteFile(file, []byte(header), 0o600); err != nil {
		t.Fatal(err)
	}
	var got *resumption
	cmd := &cli.Command{
		Flags: []cli.Flag{&cli.StringFlag{Name: replayJournalFlag}, &cli.BoolFlag{Name: replayStrictFlag}, &cli.StringFlag{Name: replayCarriedFlag}},
		Action: func(_ context.Context, cmd *cli.Command) (err error) {
			got, err = replayed(cmd)
			return err
		},
	}
	args := []string{"run", "--replay-journal", file, "--replay-strict=true", `--replay-carried={"tokens":15,"turns":1,"usd":0.5}`}
	if err := cmd.Run(context.Background(), args); err != nil {
		t.Fatal(err)
	}
	if got == nil || !got.strict || got.carried.Tokens != 15 || got.carried.USD != 0.5 || got.from != "20261207T000000Z-0a0b0c0d" {
		t.Fatalf("resumption %+v, want strict, 15 tokens and $0.5 carried, from the header's execution", got)
	}
	ce := got.compare(map[string]string{"steps": "new"}, func(string, ...any) {})
	if ce == nil || ce.Code != runapi.CodeResumeCodeChanged || ce.Exit != 2 {
		t.Errorf("changed code with --replay-strict: %v, want resume_code_changed (exit 2)", ce)
	}
}
