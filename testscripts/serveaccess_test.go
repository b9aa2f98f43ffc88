package testscripts

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestServeAccess runs testdata/serveaccess: who `stratos serve` answers,
// checked with plain HTTP requests (the program httpprobe), so it needs no
// browser. Scripts that serve beyond loopback do so inside a network
// namespace of their own (unshare -rn), where "every address" is loopback
// only: a test never listens on the machine's network. Those scripts need
// unshare (util-linux) and ip (iproute2) and fail saying so without them.
//
// Script commands:
//
//	waitfor <file> <regexp>   wait until file has a line matching regexp
func TestServeAccess(t *testing.T) {
	p := params(t, "serveaccess")
	p.Cmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){"waitfor": cmdWaitFile}
	testscript.Run(t, p)
}
