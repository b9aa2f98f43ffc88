package supervise

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"io"
)

// framePrefix starts the runner's one result line:
//
//	stratos-result <hex HMAC-SHA256 of the JSON under the run's key> <JSON>\n
//
// The key is a per-run secret that only the runner learns (in its
// invocation, on stdin), so a line anyone else writes to the channel (a
// workflow, or a process it started) cannot carry a valid MAC.
const framePrefix = "stratos-result "

// ResultKeySize is the size of a run's result key in bytes.
const ResultKeySize = 32

// NewResultKey returns a fresh random result key.
func NewResultKey() ([]byte, error) {
	key := make([]byte, ResultKeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	return key, nil
}

// Frame returns the channel line carrying doc under key, as the runner
// writes it.
func Frame(key, doc []byte) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write(doc)
	line := append([]byte(framePrefix), hex.EncodeToString(mac.Sum(nil))...)
	line = append(line, ' ')
	line = append(line, doc...)
	return append(line, '\n')
}

// unframe returns the document of a channel line framed under key, and false
// for anything else. The frame may follow other bytes on its line (a writer
// that left a partial line before the runner wrote), so the last prefix on
// the line is the one checked.
func unframe(key, line []byte) ([]byte, bool) {
	line = bytes.TrimRight(line, "\r\n")
	i := bytes.LastIndex(line, []byte(framePrefix))
	if i < 0 {
		return nil, false
	}
	macHex, doc, ok := bytes.Cut(line[i+len(framePrefix):], []byte(" "))
	if !ok {
		return nil, false
	}
	got, err := hex.DecodeString(string(macHex))
	if err != nil {
		return nil, false
	}
	mac := hmac.New(sha256.New, key)
	mac.Write(doc)
	if !hmac.Equal(got, mac.Sum(nil)) {
		return nil, false
	}
	return doc, true
}

// channelRead is what readChannel found on the result channel.
type channelRead struct {
	doc     []byte // the runner's document, nil when no valid frame came
	ignored int    // bytes of lines that were not a valid frame
}

// readChannel reads lines from r until one is a valid frame under key (the
// runner writes exactly one, so a process the workflow started that still
// holds the channel cannot delay it) or the channel ends. Every other line
// is counted and dropped.
func readChannel(r io.Reader, key []byte) channelRead {
	br := bufio.NewReaderSize(r, 64<<10)
	var res channelRead
	for {
		line, err := br.ReadBytes('\n')
		if doc, ok := unframe(key, line); ok {
			res.doc = doc
			return res
		}
		res.ignored += len(line)
		if err != nil {
			// EOF, or the read end closed after the wait (see result).
			return res
		}
	}
}
