package records

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/stratoscli/stratos/shared/filestat"
)

// Size limits of the record files that readers load whole. What Stratos
// writes stays far below them; a larger file is damaged (or was put there
// by someone else) and is reported instead of read, so that no reader's
// memory depends on what a record holds.
const (
	// MaxStatusSize bounds status.json: a few hundred bytes, and the
	// run's warnings.
	MaxStatusSize = 1 << 20
	// MaxInvocationSize bounds invocation.json (and a live entry), which
	// holds the run's input and overrides.
	MaxInvocationSize = 256 << 20
	// MaxResultSize bounds output.json and error.json: what the runtime
	// reported, whose line `stratos run` reads up to 256 MiB.
	MaxResultSize = 256 << 20
)

// ErrTooLarge is the error (wrapped) of a read that found a file larger
// than its limit.
var ErrTooLarge = errors.New("too large")

// ErrNotRegular is the error (wrapped) of a read that found something
// else than a regular file (a FIFO, a device, a directory).
var ErrNotRegular = errors.New("not a regular file")

// OpenRegular opens the regular file at path for reading. It opens without
// blocking and refuses anything else than a regular file, so that a FIFO
// or a device in a record's place can neither hang nor flood a reader.
func OpenRegular(path string) (*os.File, filestat.Stat, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, filestat.Stat{}, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, filestat.Stat{}, err
	}
	sys, ok := info.Sys().(*syscall.Stat_t)
	if !info.Mode().IsRegular() || !ok {
		f.Close()
		return nil, filestat.Stat{}, fmt.Errorf("read %s: %w", path, ErrNotRegular)
	}
	return f, filestat.Of(sys), nil
}

// ReadFile reads the regular file at path, of at most limit bytes, and
// returns the stat data taken before reading it: a change after they were
// taken changes them, so they never vouch for content that was not read.
func ReadFile(path string, limit int64) ([]byte, filestat.Stat, error) {
	f, st, err := OpenRegular(path)
	if err != nil {
		return nil, filestat.Stat{}, err
	}
	defer f.Close()
	if st.Size > limit {
		return nil, st, tooLarge(path, limit)
	}
	// The size is read up to the limit, not trusted: the file may grow.
	var buf bytes.Buffer
	buf.Grow(int(st.Size) + 1)
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, st, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(buf.Len()) > limit {
		return nil, st, tooLarge(path, limit)
	}
	return buf.Bytes(), st, nil
}

func tooLarge(path string, limit int64) error {
	return fmt.Errorf("%s is larger than %d bytes, the most Stratos reads of a %s: %w", path, limit, filepath.Base(path), ErrTooLarge)
}

// limitOf is the size limit of the record file name.
func limitOf(name string) int64 {
	switch name {
	case StatusFile:
		return MaxStatusSize
	case OutputFile, ErrorFile:
		return MaxResultSize
	}
	return MaxInvocationSize
}

// ReadResultFile returns the JSON in dir/name (output.json or error.json),
// nil when there is none.
func ReadResultFile(dir, name string) (json.RawMessage, error) {
	path := filepath.Join(dir, name)
	data, _, err := ReadFile(path, limitOf(name))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !json.Valid(data) {
		return nil, fmt.Errorf("%s is not valid JSON", path)
	}
	return json.RawMessage(data), nil
}

// ReadStatusStat reads dir/status.json as ReadStatus does, and returns the
// stat data taken before reading it (see ReadFile).
func ReadStatusStat(dir string) (Status, filestat.Stat, error) {
	var st Status
	path := filepath.Join(dir, StatusFile)
	stat, err := readJSONFile(path, MaxStatusSize, &st)
	if err == nil && !slices.Contains(Statuses, st.Status) {
		err = fmt.Errorf("parse %s: unknown status %q", path, st.Status)
	}
	return st, stat, err
}

func readRecordFile(dir, name string, v any) error {
	_, err := readJSONFile(filepath.Join(dir, name), limitOf(name), v)
	return err
}

// readJSONFile decodes the JSON file at path, of at most limit bytes.
func readJSONFile(path string, limit int64, v any) (filestat.Stat, error) {
	data, st, err := ReadFile(path, limit)
	if err != nil {
		if errors.Is(err, ErrTooLarge) || errors.Is(err, ErrNotRegular) {
			return st, err
		}
		return st, fmt.Errorf("read %s: %w", path, unwrapPath(err))
	}
	if err := json.Unmarshal(data, v); err != nil {
		return st, fmt.Errorf("parse %s: %w", path, err)
	}
	return st, nil
}

// unwrapPath is the cause of an *os.PathError, whose text would name the
// path a second time.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
