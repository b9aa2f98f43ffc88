package supervise

import (
	"io"

	"github.com/stratoscli/stratos/shared/hmacframe"
)

// resultTag starts the runner's one result line (see shared/hmacframe):
//
//	stratos-result <hex HMAC-SHA256 of the JSON under the run's key> <JSON>\n
//
// The key is a per-run secret that only the runner learns (in its
// invocation, on stdin), so a line anyone else writes to the channel (a
// workflow, or a process it started) cannot carry a valid MAC.
const resultTag = "stratos-result"

// maxResultLine bounds one line on the result channel. The runner's line
// carries the workflow's output and invocation tree, so the bound is far
// above any real result; it keeps a process that writes an endless line to
// the channel from growing stratos run's memory without end.
const maxResultLine = 256 << 20

// ResultKeySize is the size of a run's result key in bytes.
const ResultKeySize = hmacframe.KeySize

// NewResultKey returns a fresh random result key.
func NewResultKey() ([]byte, error) {
	return hmacframe.NewKey()
}

// Frame returns the channel line carrying doc under key, as the runner
// writes it.
func Frame(key, doc []byte) []byte {
	return hmacframe.New(resultTag, key).Frame(doc)
}

// channelRead is what readChannel found on the result channel.
type channelRead struct {
	doc     []byte // the runner's document, nil when no valid frame came
	ignored int    // bytes of lines that were not a valid frame
}

// readChannel reads lines from r until one is a valid frame under key (the
// runner writes exactly one, so a process the workflow started that still
// holds the channel cannot delay it) or the channel ends (EOF, or the read
// end closed after the wait; see result). Every other line is counted and
// dropped.
func readChannel(r io.Reader, key []byte) channelRead {
	fr := hmacframe.NewReader(r, hmacframe.New(resultTag, key), maxResultLine)
	doc, _ := fr.Next()
	return channelRead{doc: doc, ignored: fr.Ignored()}
}
