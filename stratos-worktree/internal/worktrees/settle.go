package worktrees

import (
	"context"
	"fmt"
	"strings"

	"github.com/stratoscli/stratos/stratos-worktree/internal/gitx"
	"github.com/stratoscli/stratos/stratos-worktree/internal/registry"
	"github.com/stratoscli/stratos/stratos-worktree/internal/trash"
)

// Cleanup outcomes.
const (
	OutcomeRemoved = "removed" // the clean checkout was removed; its branch is kept
	OutcomeKept    = "kept"    // the checkout stays; Reason says why
	OutcomeAbsent  = "absent"  // there was no checkout; the bookkeeping was dropped
)

// Reasons for keeping a checkout.
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
	Trash    *trash.Kept  `json:"trash,omitempty"`
	Warnings []Diagnostic `json:"warnings"`
}

// StaleOwner is a registration dropped because its process is gone.
type StaleOwner struct {
	Name      string `json:"name"`
	ID        string `json:"id"`
	PID       int    `json:"pid"`
	StartTime uint64 `json:"startTime"`
}

func newSettlement(ws *workspace, name string) *Settlement {
	return &Settlement{Name: name, Path: ws.checkoutPath(name), LiveOwners: []string{}, StaleOwners: []StaleOwner{}, Warnings: []Diagnostic{}}
}

func (s *Settlement) keep(reason string, d *Diagnostic) {
	s.Outcome, s.Reason = OutcomeKept, reason
	if d != nil {
		d.Name = s.Name
		s.Warnings = append(s.Warnings, *d)
	}
}

// settle applies the cleanup rules to name while its lock is held. rec may be
// nil (no record); changed says the caller already modified it. Owners whose process is gone are dropped; if no live owner
// remains and the checkout is not protected, a clean checkout is removed (its
// branch kept) and a dirty one preserved with a diagnostic. Stratos never
// discards changes: removal goes through `git worktree remove` without force.
func (m *Manager) settle(ctx context.Context, ws *workspace, name string, rec *registry.Record, changed bool, s *Settlement) {
	if rec != nil {
		s.Branch = rec.Branch
		if m.dropStaleOwners(name, rec, s) {
			changed = true
		}
	}
	save := func() {
		if rec == nil || !changed {
			return
		}
		if err := ws.store.Save(rec, false); err != nil {
			s.Warnings = append(s.Warnings, Diagnostic{Code: DiagRegistryUnreadable, Name: name, Message: err.Error()})
		}
	}
	if len(s.LiveOwners) > 0 {
		save()
		if s.Reason == "" {
			s.keep(ReasonInUse, nil)
		}
		return
	}
	if rec != nil && rec.Protected {
		save()
		s.keep(ReasonProtected, nil)
		return
	}
	state, entry, err := ws.classify(ctx, name)
	if err != nil {
		save()
		s.keep(ReasonStatus, &Diagnostic{Code: DiagStatusFailed, Message: err.Error()})
		return
	}
	switch state {
	case stateConflict:
		save()
		s.keep(ReasonConflict, &Diagnostic{Code: DiagNotAWorktree, Message: ws.conflictError(name).Message})
	case stateAbsent, stateStaleRegistration:
		m.dropAbsent(ctx, ws, name, state, s)
	case stateCheckedOut:
		if entry.Branch != "" {
			s.Branch = gitx.ShortBranch(entry.Branch)
		}
		m.removeIfClean(ctx, ws, name, s, save)
	}
}

// dropStaleOwners removes owners whose process is gone and fills
// s.LiveOwners. An owner whose liveness cannot be established counts as
// live: when in doubt, preserve.
func (m *Manager) dropStaleOwners(name string, rec *registry.Record, s *Settlement) (changed bool) {
	kept := rec.Owners[:0]
	for _, o := range rec.Owners {
		alive, err := m.alive(o.Identity())
		if err != nil {
			s.keep(ReasonUnknown, &Diagnostic{Code: DiagLivenessUnknown, Message: fmt.Sprintf("cannot tell whether owner %q (pid %d) still runs: %v", o.ID, o.PID, err)})
			alive = true
		}
		if alive {
			kept = append(kept, o)
			s.LiveOwners = append(s.LiveOwners, o.ID)
			continue
		}
		s.StaleOwners = append(s.StaleOwners, StaleOwner{Name: name, ID: o.ID, PID: o.PID, StartTime: o.StartTime})
		changed = true
	}
	rec.Owners = kept
	return changed
}

// dropAbsent ends the bookkeeping of a worktree whose checkout is gone.
func (m *Manager) dropAbsent(ctx context.Context, ws *workspace, name string, state checkoutState, s *Settlement) {
	if state == stateStaleRegistration {
		if err := ws.git.RemoveWorktree(ctx, ws.root, s.Path, false); err != nil {
			s.keep(ReasonFailed, &Diagnostic{Code: DiagRemoveFailed, Message: err.Error()})
			return
		}
	}
	if err := ws.store.Delete(name); err != nil {
		s.keep(ReasonFailed, &Diagnostic{Code: DiagRemoveFailed, Message: err.Error()})
		return
	}
	s.Outcome = OutcomeAbsent
}

// removeIfClean removes the checkout when git reports no staged, unstaged or
// untracked change, and preserves it (saving the record) otherwise. Ignored
// files that are not regenerable go to the trash first; if that fails the
// checkout is preserved.
func (m *Manager) removeIfClean(ctx context.Context, ws *workspace, name string, s *Settlement, save func()) {
	changes, err := ws.git.Status(ctx, s.Path)
	if err != nil {
		save()
		s.keep(ReasonStatus, &Diagnostic{Code: DiagStatusFailed, Message: err.Error()})
		return
	}
	if changes.Dirty() {
		save()
		s.keep(ReasonDirty, &Diagnostic{Code: DiagDirty, Message: describeChanges(s.Path, changes) + "; it is preserved and its branch kept", Changes: &changes})
		return
	}
	kept, err := ws.keepIgnored(ctx, name, s.Path)
	s.Trash = kept
	if kept != nil {
		s.Warnings = append(s.Warnings, keptDiagnostic(name, s.Path, kept))
	}
	if err != nil {
		save()
		s.keep(ReasonFailed, &Diagnostic{Code: DiagRemoveFailed, Message: fmt.Sprintf("checkout %s preserved: %v", s.Path, err)})
		return
	}
	if err := ws.git.RemoveWorktree(ctx, ws.root, s.Path, false); err != nil {
		save()
		s.keep(ReasonFailed, &Diagnostic{Code: DiagRemoveFailed, Message: fmt.Sprintf("checkout %s preserved: %v", s.Path, err)})
		return
	}
	if err := ws.store.Delete(name); err != nil {
		s.Warnings = append(s.Warnings, Diagnostic{Code: DiagRegistryUnreadable, Name: name, Message: err.Error()})
	}
	s.Outcome = OutcomeRemoved
}

// describeChanges names what is dirty, a few files of each kind.
func describeChanges(path string, c gitx.Changes) string {
	var parts []string
	for _, kind := range []struct {
		label string
		files []string
	}{{"staged", c.Staged}, {"unstaged", c.Unstaged}, {"untracked", c.Untracked}} {
		if len(kind.files) > 0 {
			parts = append(parts, fmt.Sprintf("%s: %s", kind.label, fileSample(kind.files)))
		}
	}
	return fmt.Sprintf("checkout %s has changes (%s)", path, strings.Join(parts, "; "))
}

func fileSample(files []string) string {
	const show = 5
	if len(files) <= show {
		return strings.Join(files, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(files[:show], ", "), len(files)-show)
}
