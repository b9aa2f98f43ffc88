package runs

import (
	"encoding/binary"
	"errors"
	"time"

	"github.com/stratoscli/stratos/stratos-run/records"
)

// The index's encoding: a magic line, the number of runs, then each run's
// fields in Run's order (Dir left out), strings and times length-prefixed
// (times in time.Time's binary form, which keeps their offset), numbers as
// varints, and one byte saying which optional fields follow. It is read
// and written only here; anything that does not decode exactly is an
// unusable index, rebuilt from the records.
const indexMagic = "stratos runs index 3\n"

const (
	hasEnded      = 1 << iota // EndedAt follows DurationMs' place
	hasExitCode               // ExitCode follows PID
	hasReconciled             // Reconciled.At and .Reason end the entry
)

var errIndexFormat = errors.New("not a runs index of this version")

func appendIndexHeader(b []byte, n int) []byte {
	return binary.AppendUvarint(append(b, indexMagic...), uint64(n))
}

// appendIndexEntry appends r, without its directory.
func appendIndexEntry(b []byte, r Run) []byte {
	var flags byte
	if r.EndedAt != nil {
		flags |= hasEnded
	}
	if r.ExitCode != nil {
		flags |= hasExitCode
	}
	if r.Reconciled != nil {
		flags |= hasReconciled
	}
	b = appendBytes(b, r.ExecutionID)
	b = appendBytes(b, r.Workflow)
	b = appendBytes(b, r.Status)
	b = appendBinaryTime(append(b, flags), r.StartedAt)
	if r.EndedAt != nil {
		b = appendBinaryTime(b, *r.EndedAt)
	}
	b = binary.AppendVarint(b, r.DurationMs)
	b = binary.AppendVarint(b, int64(r.PID))
	if r.ExitCode != nil {
		b = binary.AppendVarint(b, int64(*r.ExitCode))
	}
	if r.Reconciled != nil {
		b = appendBytes(appendBinaryTime(b, r.Reconciled.At), r.Reconciled.Reason)
	}
	return b
}

func appendBytes(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func appendBinaryTime(b []byte, t time.Time) []byte {
	enc, err := t.MarshalBinary()
	if err != nil { // a year outside int16 or an offset that is not whole minutes: not stored
		enc = nil
	}
	return appendBytes(b, string(enc))
}

// decodeIndex decodes what appendIndexHeader and appendIndexEntry wrote.
func decodeIndex(data []byte) ([]Run, error) {
	if len(data) < len(indexMagic) || string(data[:len(indexMagic)]) != indexMagic {
		return nil, errIndexFormat
	}
	d := indexDecoder{b: data[len(indexMagic):]}
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.b)) { // every entry takes more than a byte
		return nil, errIndexFormat
	}
	list := make([]Run, 0, n)
	for range n {
		list = append(list, d.run())
	}
	if d.err != nil || len(d.b) != 0 {
		return nil, errIndexFormat
	}
	return list, nil
}

// indexDecoder reads fields off b; after the first error every read
// returns a zero value and err stays set.
type indexDecoder struct {
	b   []byte
	err error
}

func (d *indexDecoder) run() Run {
	r := Run{ExecutionID: d.string(), Workflow: d.string(), Status: d.string()}
	flags := d.byte()
	r.StartedAt = d.time()
	if flags&hasEnded != 0 {
		t := d.time()
		r.EndedAt = &t
	}
	r.DurationMs = d.varint()
	r.PID = int(d.varint())
	if flags&hasExitCode != 0 {
		code := int(d.varint())
		r.ExitCode = &code
	}
	if flags&hasReconciled != 0 {
		r.Reconciled = &records.Reconciliation{At: d.time(), Reason: d.string()}
	}
	return r
}

func (d *indexDecoder) fail() { d.err, d.b = errIndexFormat, nil }

func (d *indexDecoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *indexDecoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *indexDecoder) byte() byte {
	if len(d.b) == 0 {
		d.fail()
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *indexDecoder) bytes() []byte {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *indexDecoder) string() string { return string(d.bytes()) }

func (d *indexDecoder) time() time.Time {
	var t time.Time
	if enc := d.bytes(); len(enc) > 0 && t.UnmarshalBinary(enc) != nil {
		d.fail()
	}
	return t
}
