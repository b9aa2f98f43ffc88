package process

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// FuzzReadLines checks how a harness CLI's output is cut into protocol
// lines, whatever it writes and however the pipe delivers it: every
// non-blank line reaches the handler once, in order, trimmed and whole
// (however long), and a line the handler kept stays as it was while later
// ones are read (the adapters keep frames' raw bytes).
func FuzzReadLines(f *testing.F) {
	f.Add(`{"type":"system","subtype":"init"}`+"\n"+`{"type":"result"}`+"\n", uint16(0))
	f.Add("\n\n  \r\n{\"a\":1}\r\n\tdata: {}\t\nlast line without newline", uint16(1))
	f.Add(strings.Repeat("x", 300<<10)+"\n{}\n", uint16(4096))
	f.Fuzz(func(t *testing.T, input string, chunk uint16) {
		var want [][]byte
		for _, l := range strings.Split(input, "\n") {
			if b := bytes.TrimSpace([]byte(l)); len(b) > 0 {
				want = append(want, b)
			}
		}
		var r = iotest.HalfReader(strings.NewReader(input))
		if chunk > 0 {
			r = &chunkReader{data: []byte(input), n: int(chunk)}
		}
		var got [][]byte
		done := make(chan struct{})
		readLines(r, func(line []byte) { got = append(got, line) }, done)
		<-done
		if len(got) != len(want) {
			t.Fatalf("%d lines, want %d", len(got), len(want))
		}
		for i := range want {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("line %d = %q, want %q", i, got[i], want[i])
			}
		}
	})
}

// chunkReader returns at most n bytes per Read, as a pipe may.
type chunkReader struct {
	data []byte
	n    int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	k := min(len(p), c.n, len(c.data))
	copy(p, c.data[:k])
	c.data = c.data[k:]
	return k, nil
}
