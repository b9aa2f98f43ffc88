// Package registry keeps the bookkeeping of managed worktrees: one JSON record
// and one lock file per worktree name. Records are replaced atomically (temp
// file + rename), so a crash leaves either the old or the new record, never a
// half-written one.
package registry

import (
	"time"

	"github.com/stratoscli/stratos/shared/procid"
)

// FormatVersion is the version of the record format written by this build.
const FormatVersion = 1

// Record is the bookkeeping of one managed worktree.
type Record struct {
	FormatVersion int       `json:"formatVersion"`
	Name          string    `json:"name"`
	Branch        string    `json:"branch"` // branch checked out when this checkout lifecycle began
	CreatedAt     time.Time `json:"createdAt"`
	// Protected is set by any cleanup=false request and cleared only by
	// explicit removal, which deletes the record.
	Protected   bool    `json:"protected"`
	ProtectedBy string  `json:"protectedBy,omitempty"` // owner that asked first, if any
	Owners      []Owner `json:"owners"`
}

// Owner is one registered use of a worktree: a run identified by the caller's
// id, and the process that holds the use.
type Owner struct {
	ID         string    `json:"id"`
	PID        int       `json:"pid"`
	StartTime  uint64    `json:"startTime"`
	AcquiredAt time.Time `json:"acquiredAt"`
}

// Identity is the process identity of o.
func (o Owner) Identity() procid.Identity {
	return procid.Identity{PID: o.PID, StartTime: o.StartTime}
}

// AddOwner registers o, replacing an earlier registration with the same id:
// an owner id is one use, however many agents of that run share the worktree.
func (r *Record) AddOwner(o Owner) {
	r.RemoveOwner(o.ID)
	r.Owners = append(r.Owners, o)
	sortOwners(r.Owners)
}

// RemoveOwner drops the owner with id and reports whether it was registered.
func (r *Record) RemoveOwner(id string) bool {
	kept := r.Owners[:0]
	found := false
	for _, o := range r.Owners {
		if o.ID == id {
			found = true
			continue
		}
		kept = append(kept, o)
	}
	r.Owners = kept
	return found
}

func sortOwners(owners []Owner) {
	// Insertion sort by id keeps the file stable and diffable.
	for i := 1; i < len(owners); i++ {
		for j := i; j > 0 && owners[j].ID < owners[j-1].ID; j-- {
			owners[j], owners[j-1] = owners[j-1], owners[j]
		}
	}
}
