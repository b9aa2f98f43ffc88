package serve

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/jsonvalidate/verdict"
)

const schema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"n":{"type":"number"}},"required":["n"],"additionalProperties":false}`

func replies(t *testing.T, in string) []verdict.Reply {
	t.Helper()
	var out bytes.Buffer
	if err := Serve(strings.NewReader(in), &out); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	var rs []verdict.Reply
	dec := json.NewDecoder(&out)
	for dec.More() {
		var r verdict.Reply
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	return rs
}

// Each request has its reply, in order: a compile-only request an empty
// one, a match no issues, a mismatch every failing field, a schema that
// does not compile its reason (every time it is sent).
func TestServeAnswersEachRequestInOrder(t *testing.T) {
	in := `{"schema":` + schema + `}
{"schema":` + schema + `,"value":{"n":1}}
{"schema":` + schema + `,"value":{"n":"x","m":2}}
{"schema":{"type":"nope"},"value":{}}
{"schema":{"type":"nope"},"value":{}}
`
	rs := replies(t, in)
	if len(rs) != 5 {
		t.Fatalf("%d replies, want 5: %+v", len(rs), rs)
	}
	if rs[0].SchemaError != "" || rs[0].Issues != nil || rs[1].SchemaError != "" || rs[1].Issues != nil {
		t.Errorf("compile and match = %+v, %+v; want empty replies", rs[0], rs[1])
	}
	if got := verdict.Text(rs[2].Issues); got != `field "m": unknown field (not in the schema); field "n": got string, want number` {
		t.Errorf("mismatch = %q", got)
	}
	for _, r := range rs[3:] {
		if !strings.Contains(r.SchemaError, "is not a valid JSON Schema") {
			t.Errorf("bad schema = %+v, want its reason", r)
		}
	}
}

func TestServeRefusesWhatIsNoRequest(t *testing.T) {
	if err := Serve(strings.NewReader(`{"schema":`), &bytes.Buffer{}); err == nil {
		t.Error("a torn request: no error")
	}
	var stderr bytes.Buffer
	if code := Main([]string{"stratos-run-validate", "x"}, strings.NewReader(""), &bytes.Buffer{}, &stderr); code != 2 {
		t.Errorf("with an argument: exit %d, want 2 (%s)", code, stderr.String())
	}
}
