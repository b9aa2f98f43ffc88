package filestat

import (
	"fmt"
	"os"
	"syscall"
)

// Clock is a file system's own time at one instant, read from the
// timestamps of a file created on it. Stat data taken after that instant
// vouch for the content read with them only when the file last changed
// before it: a change in the same timestamp tick as the instant could be
// followed by another in that tick that leaves every stat field as it was.
// This is git's racily-clean rule with the file system's real granularity
// (nanoseconds on most Linux file systems, two seconds on FAT), where
// RacyWindow assumes the coarsest.
type Clock struct {
	Dev uint64 `json:"dev"`
	Now int64  `json:"now"` // nanoseconds, as the file system stamps files
}

// ReadClock reads the clock of the file system holding dir by creating (and
// removing) a temporary file there. It is for writers: reading it writes.
func ReadClock(dir string) (Clock, error) {
	f, err := os.CreateTemp(dir, ".clock-*")
	if err != nil {
		return Clock{}, fmt.Errorf("read the file system clock in %s: %w", dir, err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	var st syscall.Stat_t
	if err := fstat(int(f.Fd()), &st); err != nil {
		return Clock{}, fmt.Errorf("read the file system clock in %s: %w", dir, err)
	}
	s := Of(&st)
	return Clock{Dev: s.Dev, Now: min(s.Mtime, s.Ctime)}, nil
}

// Vouches reports whether stat data s, taken after the clock was read,
// identify the content read with them. On another file system than the
// clock's, the clock says nothing about ticks there: RacyWindow applies.
func (c Clock) Vouches(s Stat) bool {
	if s.Dev != c.Dev {
		return !s.Racy(c.Now)
	}
	return s.Mtime < c.Now && s.Ctime < c.Now
}
