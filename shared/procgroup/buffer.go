package procgroup

import "bytes"

// maxOutput bounds what Output keeps of a child's standard output: version
// strings and configuration values, never a stream.
const maxOutput = 1 << 20

// limitedBuffer keeps the first maxOutput bytes written to it and discards
// the rest without failing the writer. It has no ReadFrom, so io.Copy goes
// through Write.
type limitedBuffer struct{ buf bytes.Buffer }

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := maxOutput - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (b *limitedBuffer) Bytes() []byte { return b.buf.Bytes() }
