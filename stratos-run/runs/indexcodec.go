package runs

import (
	"encoding/binary"
	"errors"
	"time"

	"github.com/stratoscli/stratos/shared/filestat"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// The index's encoding: a magic line, the number of runs, then each run's
// fields in Run's order (Dir left out) followed by the stat data of its
// status.json, strings and times length-prefixed (times in time.Time's
// binary form, which keeps their offset), numbers as varints, and one byte
// saying which optional fields follow. It is read and written only here;
// anything that does not decode exactly is an unusable index, rebuilt from
// the records.
const indexMagic = "stratos runs index 6\n"

const (
	hasEnded       = 1 << iota // EndedAt follows StartedAt
	hasExitCode                // ExitCode follows PID
	hasReconciled              // Reconciled.At and .Reason follow
	hasInferredEnd             // Reconciled.InferredEnd and .InferredFrom follow those
	hasResumedFrom             // ResumedFrom follows the reconciliation (or where it would be)
	hasAttemptOf               // AttemptOf follows ResumedFrom (or where it would be)
)

// minIndexEntry is the fewest bytes an entry takes: three empty strings,
// the flags, a start time (its length and 15 bytes), five one-byte numbers
// and the five of the stat data. It bounds how many entries a count may
// promise before any is decoded.
const minIndexEntry = 3 + 1 + 16 + 2 + 5

var errIndexFormat = errors.New("not a runs index of this version")

func appendIndexHeader(b []byte, n int) []byte {
	return binary.AppendUvarint(append(b, indexMagic...), uint64(n))
}

// appendIndexEntry appends x, without its run's directory. ok is false,
// and b returned as it was, when a time of the run has no binary form (a
// zone offset of exactly minus one minute or beyond ±22 days, which records
// never hold): such a run is left out of the index and read from its
// record.
func appendIndexEntry(b []byte, x indexEntry) (_ []byte, ok bool) {
	r := x.run
	var flags byte
	if r.EndedAt != nil {
		flags |= hasEnded
	}
	if r.ExitCode != nil {
		flags |= hasExitCode
	}
	if r.Reconciled != nil {
		flags |= hasReconciled
		if r.Reconciled.InferredEnd != nil {
			flags |= hasInferredEnd
		}
	}
	if r.ResumedFrom != "" {
		flags |= hasResumedFrom
	}
	if r.AttemptOf != "" {
		flags |= hasAttemptOf
	}
	e := indexEncoder{b: b, ok: true}
	e.string(r.ExecutionID)
	e.string(r.Workflow)
	e.string(r.Status)
	e.b = append(e.b, flags)
	e.time(r.StartedAt)
	if r.EndedAt != nil {
		e.time(*r.EndedAt)
	}
	e.varint(r.DurationMs)
	e.varint(int64(r.PID))
	if r.ExitCode != nil {
		e.varint(int64(*r.ExitCode))
	}
	if r.Reconciled != nil {
		e.time(r.Reconciled.At)
		e.string(r.Reconciled.Reason)
		if r.Reconciled.InferredEnd != nil {
			e.time(*r.Reconciled.InferredEnd)
			e.string(r.Reconciled.InferredFrom)
		}
	}
	if r.ResumedFrom != "" {
		e.string(r.ResumedFrom)
	}
	if r.AttemptOf != "" {
		e.string(r.AttemptOf)
	}
	e.stat(x.status)
	if !e.ok {
		return b, false
	}
	return e.b, true
}

// indexEncoder appends fields as indexDecoder reads them.
type indexEncoder struct {
	b  []byte
	ok bool // every time had a binary form
}

func (e *indexEncoder) string(s string) {
	e.b = append(binary.AppendUvarint(e.b, uint64(len(s))), s...)
}

func (e *indexEncoder) varint(v int64) { e.b = binary.AppendVarint(e.b, v) }

func (e *indexEncoder) stat(st filestat.Stat) {
	e.b = binary.AppendUvarint(e.b, st.Dev)
	e.b = binary.AppendUvarint(e.b, st.Ino)
	e.varint(st.Size)
	e.varint(st.Mtime)
	e.varint(st.Ctime)
}

func (e *indexEncoder) time(t time.Time) {
	enc, err := t.MarshalBinary()
	e.ok = e.ok && err == nil
	e.string(string(enc))
}

// decodeIndex decodes what appendIndexHeader and appendIndexEntry wrote.
func decodeIndex(data []byte) ([]indexEntry, error) {
	if len(data) < len(indexMagic) || string(data[:len(indexMagic)]) != indexMagic {
		return nil, errIndexFormat
	}
	d := indexDecoder{b: data[len(indexMagic):]}
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.b)/minIndexEntry) {
		return nil, errIndexFormat
	}
	list := make([]indexEntry, 0, n)
	for range n {
		list = append(list, d.entry())
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

func (d *indexDecoder) entry() indexEntry {
	r := d.run()
	return indexEntry{run: r, status: d.stat()}
}

func (d *indexDecoder) run() Run {
	r := Run{ExecutionID: d.string(), Workflow: d.string(), Status: d.string()}
	flags := d.byte()
	if flags&^(hasEnded|hasExitCode|hasReconciled|hasInferredEnd|hasResumedFrom|hasAttemptOf) != 0 {
		d.fail()
	}
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
		if flags&hasInferredEnd != 0 {
			t := d.time()
			r.Reconciled.InferredEnd, r.Reconciled.InferredFrom = &t, d.string()
		}
	}
	if flags&hasResumedFrom != 0 {
		r.ResumedFrom = d.string()
	}
	if flags&hasAttemptOf != 0 {
		r.AttemptOf = d.string()
	}
	return r
}

func (d *indexDecoder) stat() filestat.Stat {
	return filestat.Stat{Dev: d.uvarint(), Ino: d.uvarint(), Size: d.varint(), Mtime: d.varint(), Ctime: d.varint()}
}

func (d *indexDecoder) fail() { d.err, d.b = errIndexFormat, nil }

// advance consumes n bytes of a varint just read (n <= 0: none could be).
func (d *indexDecoder) advance(n int) bool {
	if n <= 0 {
		d.fail()
		return false
	}
	d.b = d.b[n:]
	return true
}

func (d *indexDecoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if !d.advance(n) {
		return 0
	}
	return v
}

func (d *indexDecoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if !d.advance(n) {
		return 0
	}
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
	if t.UnmarshalBinary(d.bytes()) != nil {
		d.fail()
	}
	return t
}
