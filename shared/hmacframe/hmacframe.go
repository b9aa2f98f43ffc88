// Package hmacframe is the line framing by which a node process Stratos
// started (the runner, the definition loader) reports to it over a pipe
// that code it does not trust may also write to:
//
//	<tag> <hex HMAC-SHA256 of the JSON under the key> <JSON>\n
//
// The key is a per-process secret that only the reporting side learns (in
// its invocation, on stdin), so a line anything else writes cannot carry a
// valid MAC. The SDK's TypeScript side writes the same bytes (see
// shared/sdk/src/runner.ts and loader.ts).
package hmacframe

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
)

// KeySize is the size of a frame key in bytes.
const KeySize = 32

// NewKey returns a fresh random frame key.
func NewKey() ([]byte, error) {
	key := make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("create a frame key: %w", err)
	}
	return key, nil
}

// Framer frames and checks lines of one tag under one key.
type Framer struct {
	prefix []byte // the tag and its separating space
	key    []byte
}

// New returns the Framer for tag (one word, such as "stratos-result") and
// key.
func New(tag string, key []byte) Framer {
	return Framer{prefix: []byte(tag + " "), key: key}
}

// Frame returns the line carrying doc, as the reporting side writes it.
func (f Framer) Frame(doc []byte) []byte {
	line := append([]byte(nil), f.prefix...)
	line = hex.AppendEncode(line, f.mac(doc))
	line = append(line, ' ')
	line = append(line, doc...)
	return append(line, '\n')
}

// Unframe returns the document of a line framed under f, and false for
// anything else. The frame may follow other bytes on its line (a writer
// that left a partial line before the frame), and the document may contain
// the tag itself (a workflow's output that mentions it), so each tag on the
// line that a well-formed MAC follows is tried in turn, up to
// maxCandidates of them: a line can only hold more by a writer forging
// frames, and trying them all would hash a long line once per tag.
func (f Framer) Unframe(line []byte) ([]byte, bool) {
	rest := bytes.TrimRight(line, "\r\n")
	for tried := 0; tried < maxCandidates; {
		i := bytes.Index(rest, f.prefix)
		if i < 0 {
			return nil, false
		}
		rest = rest[i+len(f.prefix):]
		mac, doc, ok := cutMAC(rest)
		if !ok {
			continue
		}
		tried++
		if f.Verify(doc, mac) {
			return doc, true
		}
	}
	return nil, false
}

// maxCandidates bounds the tags with a well-formed MAC that Unframe tries
// on one line.
const maxCandidates = 8

// macHexLen is the length of a frame's MAC in hex.
const macHexLen = 2 * sha256.Size

// cutMAC splits s, the text after a tag, into its MAC and the document
// after the MAC's separating space; ok is false unless s starts with
// macHexLen hex digits and a space.
func cutMAC(s []byte) (mac, doc []byte, ok bool) {
	if len(s) <= macHexLen || s[macHexLen] != ' ' {
		return nil, nil, false
	}
	mac = make([]byte, sha256.Size)
	if _, err := hex.Decode(mac, s[:macHexLen]); err != nil {
		return nil, nil, false
	}
	return mac, s[macHexLen+1:], true
}

// Verify reports whether mac is doc's MAC under f's key, in constant time.
func (f Framer) Verify(doc, mac []byte) bool {
	return hmac.Equal(mac, f.mac(doc))
}

func (f Framer) mac(doc []byte) []byte {
	m := hmac.New(sha256.New, f.key)
	m.Write(doc)
	return m.Sum(nil)
}

// Reader reads the framed documents from a channel, dropping every other
// line. A line longer than its limit is dropped without being held in
// memory, so a writer that never ends its line cannot exhaust it.
type Reader struct {
	br      *bufio.Reader
	framer  Framer
	maxLine int
	ignored int
}

// NewReader returns a Reader of f's frames on r whose lines (newline
// included) are at most maxLine bytes.
func NewReader(r io.Reader, f Framer, maxLine int) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), framer: f, maxLine: maxLine}
}

// Next returns the document of the next validly framed line. At the end of
// the channel it returns the read error (io.EOF when it ended cleanly).
func (r *Reader) Next() ([]byte, error) {
	for {
		line, err := r.readLine()
		if doc, ok := r.framer.Unframe(line); ok {
			return doc, nil
		}
		r.ignored += len(line)
		if err != nil {
			return nil, err
		}
	}
}

// Ignored returns how many bytes of the lines read so far were not valid
// frames.
func (r *Reader) Ignored() int {
	return r.ignored
}

// readLine reads one line. An oversized one comes back empty, its bytes
// counted as ignored as they are discarded.
func (r *Reader) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.br.ReadSlice('\n')
		if len(line)+len(chunk) > r.maxLine {
			r.ignored += len(line) + len(chunk)
			return nil, r.skipLine(err)
		}
		line = append(line, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// skipLine discards the rest of a line whose last read ended in err,
// counting it as ignored, and returns the error that ended the line (nil
// for its newline).
func (r *Reader) skipLine(err error) error {
	for errors.Is(err, bufio.ErrBufferFull) {
		var chunk []byte
		chunk, err = r.br.ReadSlice('\n')
		r.ignored += len(chunk)
	}
	return err
}
