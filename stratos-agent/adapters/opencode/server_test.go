package opencode

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
)

// fakeServe is an `opencode serve` that loses its port the first time (as
// the real one reports it: "ServeError", exit status 1) and listens the
// next.
const fakeServe = `#!/bin/sh
port=$5
if [ ! -e "$MARK" ]; then
  : > "$MARK"
  printf 'Error: Unexpected error\n\nServeError\n' >&2
  exit 1
fi
echo "opencode server listening on http://127.0.0.1:$port"
exec sleep 30
`

func TestAServerThatLostItsPortStartsOnAnother(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "opencode")
	if err := os.WriteFile(bin, []byte(fakeServe), 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "MARK="+filepath.Join(dir, "lost-once"))
	s, err := startServer(context.Background(), bin, dir, env, "pw", hclog.NewNullLogger())
	if err != nil {
		t.Fatalf("the second start listens, yet: %v", err)
	}
	defer s.p.Shutdown(context.Background())
	if !strings.HasPrefix(s.url, "http://127.0.0.1:") {
		t.Fatalf("url %q", s.url)
	}
}

func TestAServerThatFailsOtherwiseIsNotStartedAgain(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "opencode")
	script := "#!/bin/sh\necho started >> \"$MARK\"\necho 'Error: bad config' >&2\nexit 1\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	mark := filepath.Join(dir, "starts")
	_, err := startServer(context.Background(), bin, dir, append(os.Environ(), "MARK="+mark), "pw", hclog.NewNullLogger())
	if err == nil || !strings.Contains(err.Error(), "bad config") {
		t.Fatalf("got %v, want the server's own error", err)
	}
	if b, _ := os.ReadFile(mark); strings.Count(string(b), "started") != 1 {
		t.Fatalf("started %d times, want once", strings.Count(string(b), "started"))
	}
}
