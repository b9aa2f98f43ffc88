package adaptertest

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// ConnectTrace runs a harness CLI under strace, which records every
// connect(2) of the CLI and of everything it starts: the check that a
// harness's private configuration leaves it nothing to reach beyond
// loopback (no update check, telemetry, usage statistics or login), which
// every CLI adapter makes the same way.
type ConnectTrace struct {
	// Wrapper is the script to run in place of the CLI (point the
	// harness's binary variable at it).
	Wrapper string
	file    string
}

// TraceConnects writes a wrapper that runs bin under strace. A machine
// without strace fails the test saying what to install.
func TraceConnects(t *testing.T, bin string) ConnectTrace {
	t.Helper()
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Fatal("strace is not installed: install it (apt-get install strace) to run the no-network check")
	}
	dir := t.TempDir()
	c := ConnectTrace{Wrapper: filepath.Join(dir, "traced"), file: filepath.Join(dir, "connect.trace")}
	script := "#!/bin/sh\nexec " + strace + " -f -qq -e trace=connect -o " + c.file + " " + bin + ` "$@"` + "\n"
	if err := os.WriteFile(c.Wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return c
}

// inetConnect matches a connect(2) to an IPv4 or IPv6 address in strace's
// output.
var inetConnect = regexp.MustCompile(`sa_family=AF_INET6?, .*?(inet_addr\("([^"]+)"\)|inet_pton\(AF_INET6, "([^"]+)")`)

// CheckLoopbackOnly fails t for every connection the traced CLI (who)
// made beyond loopback, and when it made no loopback connection either
// (strace then did not trace it).
func (c ConnectTrace) CheckLoopbackOnly(t *testing.T, who string) {
	t.Helper()
	f, err := os.Open(c.file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	loopbacks, sc := 0, bufio.NewScanner(f)
	for sc.Scan() {
		m := inetConnect.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		switch addr := m[2] + m[3]; addr {
		case "127.0.0.1", "::1", "::ffff:127.0.0.1":
			loopbacks++
		default:
			t.Errorf("%s connected beyond loopback: %s", who, sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if loopbacks == 0 {
		t.Fatalf("the trace shows no loopback connection of %s either: strace did not trace it", who)
	}
}
