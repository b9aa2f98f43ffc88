package worker

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/stratoscli/stratos/shared/contract/temporalapi"
)

// maxRecordFile bounds what is read of the record's status, output and
// error files: each travels in the run's result, a Temporal payload.
const maxRecordFile = 1 << 20

// codeRecord is the run record stratos run writes on this worker for one
// attempt at a run's code: the worker gives it its execution ID, so that
// it can report the record's events while the code runs and send back how
// it ended.
type codeRecord struct {
	id  string
	dir string
}

// newCodeRecord names the record of an attempt in runsDir, with an ID of the form stratos run gives its runs (the UTC
// time to the second, 8 random hex digits).
func newCodeRecord(runsDir string, now time.Time) (codeRecord, error) {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return codeRecord{}, err
	}
	id := now.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
	return codeRecord{id: id, dir: filepath.Join(runsDir, id)}, nil
}

// recordStatus is what is read of the record's status.json.
type recordStatus struct {
	Status   string     `json:"status"`
	ExitCode *int       `json:"exitCode,omitempty"`
	EndedAt  *time.Time `json:"endedAt,omitempty"`
}

// state is how the record says the run ended (its status, output or
// error and events), or only exitCode when the record has no final
// status (stratos run stopped before it began one).
func (r codeRecord) state(exitCode int, worker string) temporalapi.RunState {
	s := temporalapi.RunState{Worker: worker, WorkerRecord: r.id, ExitCode: &exitCode}
	var st recordStatus
	if json.Unmarshal(r.read("status.json"), &st) == nil && st.Status != "" && st.Status != temporalapi.StateRunning {
		s.Status, s.EndedAt = st.Status, st.EndedAt
		if st.ExitCode != nil {
			s.ExitCode = st.ExitCode
		}
	}
	if s.Status == "" {
		s.Status = temporalapi.StatusOfExit(exitCode)
		now := time.Now().UTC()
		s.EndedAt = &now
	}
	s.Output, s.Error = rawJSON(r.read("output.json")), rawJSON(r.read("error.json"))
	s.Events, s.EventsCut = r.events()
	return s
}

// read is a file of the record, nil when it is missing, unreadable or
// larger than maxRecordFile.
func (r codeRecord) read(name string) []byte {
	f, err := os.Open(filepath.Join(r.dir, name))
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxRecordFile+1))
	if err != nil || len(data) > maxRecordFile {
		return nil
	}
	return data
}

func rawJSON(data []byte) json.RawMessage {
	if len(data) == 0 || !json.Valid(data) {
		return nil
	}
	var b bytes.Buffer
	if json.Compact(&b, data) != nil {
		return nil
	}
	return b.Bytes()
}

// events are the complete lines of the record's events.jsonl, at most
// temporalapi.MaxRecordEvents bytes of them from the start, and whether
// lines were left out.
func (r codeRecord) events() ([]json.RawMessage, bool) {
	data, cut := r.eventBytes(0, temporalapi.MaxRecordEvents)
	var lines []json.RawMessage
	for line := range bytes.Lines(data) {
		if l := bytes.TrimRight(line, "\n"); json.Valid(l) {
			lines = append(lines, json.RawMessage(l))
		}
	}
	return lines, cut
}

// eventBytes is at most max bytes of the complete lines of events.jsonl
// from offset from, and whether complete lines were left after them.
func (r codeRecord) eventBytes(from int64, max int) ([]byte, bool) {
	f, err := os.Open(filepath.Join(r.dir, "events.jsonl"))
	if errors.Is(err, fs.ErrNotExist) || err != nil {
		return nil, false
	}
	defer f.Close()
	buf := make([]byte, max+1)
	n, _ := f.ReadAt(buf, from)
	buf = buf[:n]
	end := bytes.LastIndexByte(buf[:min(n, max)], '\n') + 1
	return buf[:end], n > end && bytes.IndexByte(buf[end:], '\n') >= 0
}

// eventTailBytes bounds the events one heartbeat carries.
const eventTailBytes = 64 << 10

// eventTail is the size of the complete lines of events.jsonl and the last
// of them, whole lines within eventTailBytes.
func (r codeRecord) eventTail() (int64, []byte) {
	info, err := os.Stat(filepath.Join(r.dir, "events.jsonl"))
	if err != nil {
		return 0, nil
	}
	from := max(info.Size()-eventTailBytes, 0)
	data, _ := r.eventBytes(from, eventTailBytes)
	if from > 0 {
		// The first line may have begun before from.
		i := bytes.IndexByte(data, '\n')
		from, data = from+int64(i+1), data[i+1:]
	}
	return from + int64(len(data)), data
}
