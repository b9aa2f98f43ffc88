package worktreeapi

import "time"

// AcquireResult is the JSON result of `stratos-worktree acquire --json`:
// the worktree handed out.
type AcquireResult struct {
	Path       string `json:"path"`
	Branch     string `json:"branch"` // branch checked out now; empty when detached
	Head       string `json:"head"`   // commit checked out now
	Detached   bool   `json:"detached"`
	Name       string `json:"name"`
	Repository string `json:"repository"`
	Created    bool   `json:"created"`    // the checkout was made by this call
	Reused     bool   `json:"reused"`     // an existing checkout was handed out unchanged
	BranchNew  bool   `json:"branchNew"`  // the branch was made by this call
	StartPoint string `json:"startPoint"` // what a new branch started from
	Protected  bool   `json:"protected"`
	Owner      string `json:"owner,omitempty"`
	// HarnessContext is the minimal text an agent host passes to the
	// harness about the checkout it works in.
	HarnessContext string       `json:"harnessContext"`
	Warnings       []Diagnostic `json:"warnings"`
}

// ReleaseResult is the JSON result of `stratos-worktree release --json`:
// the release and what cleanup decided.
type ReleaseResult struct {
	Repository string `json:"repository"`
	Released   bool   `json:"released"` // the owner was registered and is no longer
	Settlement
}

// ReconcileResult is the JSON result of `stratos-worktree reconcile
// --json`: what reconcile found and did, per worktree.
type ReconcileResult struct {
	Repository         string       `json:"repository"`
	StaleOwnersRemoved []StaleOwner `json:"staleOwnersRemoved"`
	Worktrees          []Settlement `json:"worktrees"`
	// TrashPruned lists the trash directories deleted for being older than
	// 14 days.
	TrashPruned []string     `json:"trashPruned"`
	Warnings    []Diagnostic `json:"warnings"`
}

// RemoveResult is the JSON result of `stratos-worktree remove --json`.
type RemoveResult struct {
	Repository          string `json:"repository"`
	Name                string `json:"name"`
	Path                string `json:"path"`
	Branch              string `json:"branch,omitempty"` // kept
	CheckoutRemoved     bool   `json:"checkoutRemoved"`
	RegistrationRemoved bool   `json:"registrationRemoved"`
	// Trash says where the checkout's ignored files went; absent when there
	// were none to keep.
	Trash    *TrashKept   `json:"trash,omitempty"`
	Warnings []Diagnostic `json:"warnings"`
}

// ListResult is the JSON result of `stratos-worktree list --json`: every
// managed worktree of a repository, sorted by name.
type ListResult struct {
	Repository string       `json:"repository"`
	Worktrees  []ListEntry  `json:"worktrees"`
	Warnings   []Diagnostic `json:"warnings"`
}

// ListEntry describes one managed worktree.
type ListEntry struct {
	Name       string        `json:"name"`
	Path       string        `json:"path"`
	Branch     string        `json:"branch"` // checked out now, or at initialization when not checked out
	Head       string        `json:"head,omitempty"`
	Detached   bool          `json:"detached"`
	CheckedOut bool          `json:"checkedOut"`
	Registered bool          `json:"registered"` // has a registry record
	Protected  bool          `json:"protected"`
	Owners     []OwnerStatus `json:"owners"`
	Dirty      bool          `json:"dirty"`
	Changes    *Changes      `json:"changes,omitempty"`
	State      string        `json:"state"` // checkedOut, absent, staleRegistration, conflict
}

// OwnerStatus is a registered owner and whether its process still runs.
type OwnerStatus struct {
	ID         string    `json:"id"`
	PID        int       `json:"pid"`
	StartTime  uint64    `json:"startTime"`
	AcquiredAt time.Time `json:"acquiredAt"`
	Live       bool      `json:"live"`
}

// Cleanup outcomes (Settlement.Outcome).
const (
	OutcomeRemoved = "removed" // the clean checkout was removed; its branch is kept
	OutcomeKept    = "kept"    // the checkout stays; Reason says why
	OutcomeAbsent  = "absent"  // there was no checkout; the bookkeeping was dropped
)

// Reasons for keeping a checkout (Settlement.Reason).
const (
	ReasonInUse      = "in_use"
	ReasonProtected  = "protected"
	ReasonDirty      = "dirty"
	ReasonLockTimout = "lock_timeout"
	ReasonFailed     = "remove_failed"
	ReasonUnknown    = "liveness_unknown"
	ReasonUnreadable = "registry_unreadable"
	ReasonStatus     = "status_failed"
	ReasonConflict   = "not_a_worktree"
)

// Settlement is what cleanup decided for one worktree.
type Settlement struct {
	Name        string       `json:"name"`
	Path        string       `json:"path"`
	Branch      string       `json:"branch,omitempty"` // kept in every case
	Outcome     string       `json:"outcome"`
	Reason      string       `json:"reason,omitempty"`
	LiveOwners  []string     `json:"liveOwners"`
	StaleOwners []StaleOwner `json:"staleOwnersRemoved"`
	// Trash says where the checkout's ignored files went before it was
	// removed; absent when there were none to keep.
	Trash    *TrashKept   `json:"trash,omitempty"`
	Warnings []Diagnostic `json:"warnings"`
}

// StaleOwner is a registration dropped because its process is gone.
type StaleOwner struct {
	Name      string `json:"name"`
	ID        string `json:"id"`
	PID       int    `json:"pid"`
	StartTime uint64 `json:"startTime"`
}

// Diagnostic is a soft problem reported beside a result (a warning): the
// operation went on or deliberately preserved something. Code is one of the
// Diag constants.
type Diagnostic struct {
	Code    string   `json:"code"`
	Message string   `json:"message"`
	Name    string   `json:"name,omitempty"`    // the worktree concerned
	Changes *Changes `json:"changes,omitempty"` // for worktree_dirty
}

// Changes lists what makes a checkout dirty, by kind. Ignored files do not
// count: git itself does not treat them as changes.
type Changes struct {
	Staged    []string `json:"staged"`
	Unstaged  []string `json:"unstaged"`
	Untracked []string `json:"untracked"`
}

// Dirty reports whether there is any change.
func (c Changes) Dirty() bool {
	return len(c.Staged)+len(c.Unstaged)+len(c.Untracked) > 0
}

// TrashKept says where the ignored files of one removed checkout went.
type TrashKept struct {
	Path  string   `json:"path"`  // the trash directory of this removal
	Files []string `json:"files"` // moved entries, relative to the checkout; a trailing "/" marks a whole directory
}

// Keep records that cleanup kept the checkout for reason, with d (if any)
// as a warning about this worktree.
func (s *Settlement) Keep(reason string, d *Diagnostic) {
	s.Outcome, s.Reason = OutcomeKept, reason
	if d != nil {
		d.Name = s.Name
		s.Warnings = append(s.Warnings, *d)
	}
}
