package wirelog

import (
	"bytes"
	"strings"
	"testing"
)

func env(v string) func(string) string {
	return func(k string) string {
		if k == EnvVar {
			return v
		}
		return ""
	}
}

func TestOffUnlessAskedFor(t *testing.T) {
	for _, v := range []string{"", "0", "true"} {
		if l := FromEnv(env(v), &bytes.Buffer{}, "x"); l != nil {
			t.Errorf("%s=%q turned the log on", EnvVar, v)
		}
	}
	var nilLog *Log
	nilLog.Message(In, []byte(`{}`)) // must not panic
	nilLog.Note("exit 0")
}

func TestNotesAreShownAsGiven(t *testing.T) {
	var b bytes.Buffer
	l := FromEnv(env("1"), &b, "stratos-worktree[42] acquire")
	l.Note("exit 0")
	l.Note(strings.Repeat("a", 2*MaxShown))
	lines := strings.Split(b.String(), "\n")
	if lines[0] != "stratos wire: stratos-worktree[42] acquire exit 0" {
		t.Errorf("note: %q", lines[0])
	}
	if len(lines[1]) > MaxShown+200 || !strings.HasSuffix(lines[1], "bytes more)") {
		t.Errorf("a long note: %.100s…", lines[1])
	}
}

func TestSecretsAreRedacted(t *testing.T) {
	var b bytes.Buffer
	l := FromEnv(env("1"), &b, "agent-host")
	l.Message(In, []byte(`{"jsonrpc":"2.0","method":"mcp.connect","params":{"headers":{"Authorization":"Bearer sk-live-abcdef123456"},"accessToken":"at-1","apiKey":"k","nested":[{"client_secret":"s"}],"note":"use Bearer abcdefgh12345 here","usage":{"inputTokens":12,"maxTokens":4},"ids":{"progressToken":"p-1"}}}`))
	out := b.String()
	for _, secret := range []string{"sk-live-abcdef123456", "at-1", `"k"`, `"s"`, "abcdefgh12345"} {
		if strings.Contains(out, secret) {
			t.Errorf("%q shown: %s", secret, out)
		}
	}
	for _, kept := range []string{`"inputTokens":12`, `"maxTokens":4`, `"progressToken":"p-1"`, "stratos wire: agent-host <- ", `"method":"mcp.connect"`} {
		if !strings.Contains(out, kept) {
			t.Errorf("%s missing: %s", kept, out)
		}
	}
}

func TestWhatIsNotJSONIsDescribed(t *testing.T) {
	var b bytes.Buffer
	FromEnv(env("1"), &b, "x").Message(Out, []byte("password=hunter2"))
	if strings.Contains(b.String(), "hunter2") || !strings.Contains(b.String(), "16 bytes that are not JSON") {
		t.Errorf("got %s", b.String())
	}
}

func TestLongMessagesAreCut(t *testing.T) {
	var b bytes.Buffer
	FromEnv(env("1"), &b, "x").Message(Out, []byte(`"`+strings.Repeat("a", 2*MaxShown)+`"`))
	if b.Len() > MaxShown+200 || !strings.Contains(b.String(), "bytes more)") {
		t.Errorf("a %d-byte line: %.100s…", b.Len(), b.String())
	}
}

// A message of several JSON values is shown whole, each value redacted;
// before, only the first was shown and the rest dropped unseen.
func TestEveryValueOfAStreamIsShownRedacted(t *testing.T) {
	got := string(Redact([]byte("{\"a\":1}\n{\"token\":\"t-secret\",\"b\":2}\n")))
	if got != "{\"a\":1}\n{\"b\":2,\"token\":\"[redacted]\"}" {
		t.Errorf("got %q", got)
	}
	if got := string(Redact([]byte(`{"a":1} password=hunter2`))); strings.Contains(got, "hunter2") {
		t.Errorf("JSON then text shown: %q", got)
	}
}
