package fakemcp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// hangInitialize is a server wedged before it is ready: it answers
// server/discover as an initialize-era server does (method not found), so
// that the client falls back to initialize, and then answers nothing. It
// ignores the end of its stdin and SIGTERM (Main has taken the signal), so
// only SIGKILL ends it: a client must not count on a wedged server leaving
// by itself.
func hangInitialize(stdin io.Reader, stdout io.Writer) int {
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) == nil && msg.Method == "server/discover" && len(msg.ID) > 0 {
			fmt.Fprintf(stdout, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found: server/discover"}}`+"\n", msg.ID)
		}
	}
	for {
		time.Sleep(time.Hour)
	}
}

// exitAtStart is a server that cannot start: it writes lines of its own on
// stderr (the last says why) and exits with status before it reads a
// message.
func exitAtStart(stderr io.Writer, status, lines int) int {
	for i := 1; i <= lines; i++ {
		fmt.Fprintf(stderr, "stratos-fakemcp: starting, step %d of %d\n", i, lines)
	}
	fmt.Fprintf(stderr, "stratos-fakemcp: cannot start: exiting with status %d\n", status)
	return status
}
