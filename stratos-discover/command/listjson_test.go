package command

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/manifest"
)

// awkward are strings every escape of the JSON encoder applies to.
var awkward = []string{
	"", "plain", `say "hi" \ back`, "tab\there\nnewline\rcr\bbs\fff", "\x00\x01\x1f\x7f",
	"<b>&amp;</b>", "caf\u00e9 \u65e5\u672c \U0001F680", "sep\u2028par\u2029end", "bad \xff\xfe utf8 \xe2\x82",
	"/abs/path/.stratos/workflows/wf-1",
}

func sameAsEncoder(t *testing.T, out listOutput) {
	t.Helper()
	var want, got bytes.Buffer
	if err := clierr.PrintJSON(&want, out); err != nil {
		t.Fatal(err)
	}
	if err := writeListJSON(&got, out); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Fatalf("writeListJSON:\n%s\nencoding/json:\n%s", got.String(), want.String())
	}
}

// The one-pass writer prints what the encoder prints for the same listing.
func TestListJSONIsTheEncodersOutput(t *testing.T) {
	sameAsEncoder(t, listOutput{Workflows: []listedWorkflow{}, Problems: []manifest.Problem{}})
	one, two := 1, 250
	out := listOutput{Problems: []manifest.Problem{
		{Dir: "/r/bad", Manifest: "/r/bad/workflow.yaml", Code: "missing", Message: "workflow.yaml: missing"},
		{Dir: "/r/long", Manifest: "/r/long/workflow.yaml", Field: "shortDescription", Code: "too-long", Message: "too long", Actual: &two, Max: &one},
	}}
	for i, s := range awkward {
		w := listedWorkflow{Name: s, ShortDescription: awkward[(i+1)%len(awkward)], Root: "project", Dir: s, Status: "built"}
		if i%2 == 1 {
			w.Status, w.Reason = "not-built", s+"-reason"
		}
		out.Workflows = append(out.Workflows, w)
	}
	sameAsEncoder(t, out)
	out.Problems = []manifest.Problem{}
	sameAsEncoder(t, out)
}

func FuzzListJSONIsTheEncodersOutput(f *testing.F) {
	for _, s := range awkward {
		f.Add(s, strings.ToUpper(s))
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		sameAsEncoder(t, listOutput{
			Workflows: []listedWorkflow{{Name: a, ShortDescription: b, Root: "user", Dir: b + a, Status: "not-built", Reason: a}},
			Problems:  []manifest.Problem{{Dir: a, Manifest: b, Field: a, Code: b, Message: a + b}},
		})
	})
}

// BenchmarkListJSON compares the one-pass writer with the encoder on a
// listing of 1,000 workflows, as scripts/bench-list prints:
//
//	go test -run XXX -bench ListJSON ./command/
func BenchmarkListJSON(b *testing.B) {
	out := listOutput{Problems: []manifest.Problem{}}
	for i := range 1000 {
		name := fmt.Sprintf("wf-%04d", i)
		out.Workflows = append(out.Workflows, listedWorkflow{
			Name: name, ShortDescription: "Synthetic workflow " + name, Root: "project",
			Dir: "/tmp/bench/project/.stratos/workflows/" + name, Status: "built",
		})
	}
	b.Run("encoder", func(b *testing.B) {
		for b.Loop() {
			if err := clierr.PrintJSON(io.Discard, out); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("one-pass", func(b *testing.B) {
		for b.Loop() {
			if err := writeListJSON(io.Discard, out); err != nil {
				b.Fatal(err)
			}
		}
	})
}
