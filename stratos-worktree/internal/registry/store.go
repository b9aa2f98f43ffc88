package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/stratoscli/stratos/shared/atomicfile"
)

// Store reads and writes records in one directory: <name>.json, beside the
// <name>.lock files of Locks.
type Store struct {
	Dir string
	// beforeRename, when set (by tests only), runs after the temp file is
	// written and before it replaces the record: the moment a crash must not
	// corrupt anything.
	beforeRename func()
}

// recordSuffix ends every record's file name; temp files of atomicfile
// (.<name>.json.tmp-…) do not end with it.
const recordSuffix = ".json"

// RecordPath is the file holding name's record.
func (s *Store) RecordPath(name string) string { return filepath.Join(s.Dir, name+recordSuffix) }

// Load returns name's record, or ok=false when there is none.
func (s *Store) Load(name string) (rec *Record, ok bool, err error) {
	path := s.RecordPath(name)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read worktree record %s: %w", path, err)
	}
	rec = &Record{}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(rec); err != nil {
		return nil, false, fmt.Errorf("worktree record %s is not valid JSON: %w", path, err)
	}
	if rec.FormatVersion != FormatVersion {
		return nil, false, fmt.Errorf("worktree record %s has formatVersion %d; this Stratos reads %d", path, rec.FormatVersion, FormatVersion)
	}
	if rec.Name != name {
		return nil, false, fmt.Errorf("worktree record %s names worktree %q, want %q", path, rec.Name, name)
	}
	return rec, true, nil
}

// Save replaces rec's record atomically: write a temp file in the same
// directory, then rename it over the record, so readers and a process that
// crashes at any point see the old record or the new one. With durable, the
// temp file is also flushed to disk before the rename, so the new content
// survives a power loss too: callers ask for it when protection changes.
// Owner changes skip the flush: owners do not outlive a power loss anyway, and
// an fsync can stall for the whole file system's journal while agents write.
// The caller must hold rec.Name's lock.
func (s *Store) Save(rec *Record, durable bool) error {
	rec.FormatVersion = FormatVersion
	if rec.Owners == nil {
		rec.Owners = []Owner{}
	}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return fmt.Errorf("encode worktree record %s: %w", rec.Name, err)
	}
	return s.writeAtomic(s.RecordPath(rec.Name), append(data, '\n'), durable)
}

func (s *Store) writeAtomic(path string, data []byte, durable bool) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create registry directory: %w", err)
	}
	var opts []atomicfile.Option
	if !durable {
		opts = append(opts, atomicfile.NoSync())
	}
	return atomicfile.Write(path, atomicfile.Public, func(w io.Writer) error {
		if _, err := w.Write(data); err != nil {
			return err
		}
		if s.beforeRename != nil {
			s.beforeRename()
		}
		return nil
	}, opts...)
}

// Delete removes name's record; a missing record is not an error. The lock
// file stays: deleting a lock file another process may have open would let
// two processes hold "the" lock on different inodes.
func (s *Store) Delete(name string) error {
	if err := os.Remove(s.RecordPath(name)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("delete worktree record: %w", err)
	}
	return nil
}

// Names lists the names that have a record, sorted.
func (s *Store) Names() ([]string, error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read registry directory: %w", err)
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if strings.HasSuffix(n, recordSuffix) {
			names = append(names, strings.TrimSuffix(n, recordSuffix))
		}
	}
	slices.Sort(names)
	return names, nil
}

// RemoveTemps deletes temp files left by a writer of name's record that
// crashed before its rename. Only call it while holding name's lock: then no
// writer of that record can be running.
func (s *Store) RemoveTemps(name string) (int, error) {
	return atomicfile.RemoveTemps(s.RecordPath(name))
}
