package ollamaerr

import (
	"context"
	"errors"
	"net"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/ollama"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// closedPort is a loopback origin nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "http://" + addr
}

func TestForAgent(t *testing.T) {
	_, badHost := ollama.ParseHost("127.0.0.1:11434")
	_, badName := ollama.NormalizeName("a:b:c")
	host, err := ollama.ParseHost(closedPort(t))
	if err != nil {
		t.Fatal(err)
	}
	_, unreachable := ollama.Client{Host: host}.Ready(context.Background(), []string{"qwen3:8b"})
	missing := &ollama.Error{Code: ollama.CodeModelMissing, Host: host.String(), Models: []string{"qwen3:8b"}}
	for _, c := range []struct {
		name    string
		err     error
		code    string
		tryNext bool
	}{
		{"model missing", missing, agentproto.CodeModelUnavailable, true},
		{"model ineligible", &ollama.Error{Code: ollama.CodeModelIneligible, Host: host.String()}, agentproto.CodeModelUnavailable, true},
		{"bad OLLAMA_HOST", badHost, agentproto.CodeConfiguration, false},
		{"bad model name", badName, agentproto.CodeConfiguration, false},
		{"server down", unreachable, agentproto.CodeInitialization, false},
		{"not an ollama error", errors.New("disk full"), agentproto.CodeInitialization, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.err == nil {
				t.Fatal("the case's error did not happen")
			}
			got := ForAgent("codex", "coder", c.err)
			if code := agentproto.CodeOf(got); code != c.code {
				t.Errorf("code %s (%v), want %s", code, got, c.code)
			}
			if rejection.TryNext(got) != c.tryNext {
				t.Errorf("TryNext = %v, want %v", !c.tryNext, c.tryNext)
			}
			if !errors.Is(got, c.err) {
				t.Errorf("%v does not wrap the cause", got)
			}
			var ae *agentproto.Error
			if !errors.As(got, &ae) {
				t.Fatalf("%v is no agent error", got)
			}
			var oe *ollama.Error
			if errors.As(c.err, &oe) && (ae.Details["harness"] != "codex" || ae.Details["provider"] != ollama.Provider || ae.Details["ollamaCode"] != oe.Code) {
				t.Errorf("details %v, want the harness, provider ollama and the ollama code", ae.Details)
			}
		})
	}
}
