package worktrees

import (
	"context"
	"fmt"
	"strings"

	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
	"github.com/stratoscli/stratos/stratos-worktree/internal/gitx"
	"github.com/stratoscli/stratos/stratos-worktree/internal/registry"
)

// Settlement is what cleanup decided for one worktree.
type Settlement = worktreeapi.Settlement

// StaleOwner is a registration dropped because its process is gone.
type StaleOwner = worktreeapi.StaleOwner

func newSettlement(ws *workspace, name string) *Settlement {
	return &Settlement{Name: name, Path: ws.checkoutPath(name), LiveOwners: []string{}, StaleOwners: []StaleOwner{}, Warnings: []Diagnostic{}}
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
			s.Warnings = append(s.Warnings, Diagnostic{Code: worktreeapi.DiagRegistryUnreadable, Name: name, Message: err.Error()})
		}
	}
	if len(s.LiveOwners) > 0 {
		save()
		if s.Reason == "" {
			s.Keep(worktreeapi.ReasonInUse, nil)
		}
		return
	}
	if rec != nil && rec.Protected {
		save()
		s.Keep(worktreeapi.ReasonProtected, nil)
		return
	}
	state, entry, err := ws.classify(ctx, name)
	if err != nil {
		save()
		s.Keep(worktreeapi.ReasonStatus, &Diagnostic{Code: worktreeapi.DiagStatusFailed, Message: err.Error()})
		return
	}
	switch state {
	case stateConflict:
		save()
		s.Keep(worktreeapi.ReasonConflict, &Diagnostic{Code: worktreeapi.DiagNotAWorktree, Message: ws.conflictError(name).Message})
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
			s.Keep(worktreeapi.ReasonUnknown, &Diagnostic{Code: worktreeapi.DiagLivenessUnknown, Message: fmt.Sprintf("cannot tell whether owner %q (pid %d) still runs: %v", o.ID, o.PID, err)})
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
			s.Keep(worktreeapi.ReasonFailed, &Diagnostic{Code: worktreeapi.DiagRemoveFailed, Message: err.Error()})
			return
		}
	}
	if err := ws.store.Delete(name); err != nil {
		s.Keep(worktreeapi.ReasonFailed, &Diagnostic{Code: worktreeapi.DiagRemoveFailed, Message: err.Error()})
		return
	}
	s.Outcome = worktreeapi.OutcomeAbsent
}

// removeIfClean removes the checkout when git reports no staged, unstaged or
// untracked change, and preserves it (saving the record) otherwise. Ignored
// files that are not regenerable go to the trash first; if that fails the
// checkout is preserved.
func (m *Manager) removeIfClean(ctx context.Context, ws *workspace, name string, s *Settlement, save func()) {
	changes, err := ws.git.Status(ctx, s.Path)
	if err != nil {
		save()
		s.Keep(worktreeapi.ReasonStatus, &Diagnostic{Code: worktreeapi.DiagStatusFailed, Message: err.Error()})
		return
	}
	if changes.Dirty() {
		save()
		s.Keep(worktreeapi.ReasonDirty, &Diagnostic{Code: worktreeapi.DiagDirty, Message: describeChanges(s.Path, changes) + "; it is preserved and its branch kept", Changes: &changes})
		return
	}
	kept, err := ws.keepIgnored(ctx, name, s.Path)
	s.Trash = kept
	if kept != nil {
		s.Warnings = append(s.Warnings, keptDiagnostic(name, s.Path, kept))
	}
	if err != nil {
		save()
		s.Keep(worktreeapi.ReasonFailed, &Diagnostic{Code: worktreeapi.DiagRemoveFailed, Message: fmt.Sprintf("checkout %s preserved: %v", s.Path, err)})
		return
	}
	if err := ws.git.RemoveWorktree(ctx, ws.root, s.Path, false); err != nil {
		save()
		s.Keep(worktreeapi.ReasonFailed, &Diagnostic{Code: worktreeapi.DiagRemoveFailed, Message: fmt.Sprintf("checkout %s preserved: %v", s.Path, err)})
		return
	}
	if err := ws.store.Delete(name); err != nil {
		s.Warnings = append(s.Warnings, Diagnostic{Code: worktreeapi.DiagRegistryUnreadable, Name: name, Message: err.Error()})
	}
	s.Outcome = worktreeapi.OutcomeRemoved
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
