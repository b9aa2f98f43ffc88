// Package worktreeapi is the contract of stratos-worktree (stratos
// worktree, and the agent host that acquires and releases checkouts for
// agents): its error codes, the codes of its warnings, and the JSON results
// of its commands.
package worktreeapi

import "github.com/stratoscli/stratos/shared/contract/errcode"

// Error codes of stratos-worktree.
const (
	CodeRepositoryNotFound   = "repository_not_found"
	CodeNotAGitRepository    = "not_a_git_repository"
	CodeBareRepository       = "bare_repository"
	CodeInvalidName          = "invalid_name"
	CodeInvalidOwner         = "invalid_owner"
	CodeOwnerNotRunning      = "owner_not_running"
	CodePathConflict         = "path_conflict"
	CodeGitFailed            = "git_failed"
	CodeGitLayout            = "git_layout"
	CodeNoCommits            = "no_commits"
	CodeNamesExhausted       = "names_exhausted"
	CodeLockTimeout          = "lock_timeout"
	CodeRegistryUnreadable   = "registry_unreadable"
	CodeRegistryUnwritable   = "registry_unwritable"
	CodeManagedDirUnwritable = "managed_dir_unwritable"
	CodeWorktreeAddFailed    = "worktree_add_failed"
	CodeWorktreeNotFound     = "worktree_not_found"
	CodeWorktreeInUse        = "worktree_in_use"
	CodeWorktreeDirty        = "worktree_dirty"
	CodeCheckoutUnreadable   = "checkout_unreadable"
	CodeRemoveFailed         = "remove_failed"
)

// Codes describes the error codes of stratos-worktree.
func Codes() []errcode.Code {
	return []errcode.Code{
		errcode.Usage(CodeRepositoryNotFound, "`--repo` does not exist or is not a directory"),
		errcode.Usage(CodeNotAGitRepository, "`--repo` is not inside a git repository"),
		errcode.Usage(CodeBareRepository, "`--repo` belongs to a bare repository; managed worktrees need a main worktree"),
		errcode.Usage(CodeInvalidName, "the worktree name is not a valid name"),
		errcode.Usage(CodeInvalidOwner, "the owner ID is empty, too long or has a non-printable character"),
		errcode.Usage(CodeOwnerNotRunning, "the owner's process is not running"),
		errcode.Failed(CodePathConflict, "the managed path is taken by something that is not the managed checkout"),
		errcode.Failed(CodeGitFailed, "a git command failed"),
		errcode.Failed(CodeGitLayout, "git's worktree layout of the repository cannot be read"),
		errcode.Failed(CodeNoCommits, "the repository has no commit to start a branch from"),
		errcode.Failed(CodeNamesExhausted, "no free generated worktree name was found"),
		errcode.Failed(CodeLockTimeout, "the worktree's lock was not free in time; `details.lock` names it"),
		errcode.Failed(CodeRegistryUnreadable, "a registry record cannot be read (`remove --force` removes anyway)"),
		errcode.Failed(CodeRegistryUnwritable, "the registry cannot be written"),
		errcode.Failed(CodeManagedDirUnwritable, "the managed worktrees directory cannot be created or written"),
		errcode.Failed(CodeWorktreeAddFailed, "git could not create the checkout or its branch"),
		errcode.Failed(CodeWorktreeNotFound, "`remove`: no managed worktree of that name"),
		errcode.Failed(CodeWorktreeInUse, "`remove`: live owners use the worktree (`--force` removes anyway)"),
		errcode.Failed(CodeWorktreeDirty, "`remove`: the checkout has changes (`--force` removes anyway and loses them)"),
		errcode.Failed(CodeCheckoutUnreadable, "the checkout's directory cannot be inspected"),
		errcode.Failed(CodeRemoveFailed, "removing the checkout failed; it is preserved"),
	}
}

// Codes of the warnings (Diagnostic) a result carries beside its data: the
// operation went on, or deliberately preserved something.
const (
	DiagOriginHeadUnavailable = "origin_head_unavailable"
	DiagDirty                 = CodeWorktreeDirty
	DiagLockTimeout           = CodeLockTimeout
	DiagRemoveFailed          = CodeRemoveFailed
	DiagNotRegistered         = "not_registered"
	DiagLivenessUnknown       = "liveness_unknown"
	DiagRegistryUnreadable    = CodeRegistryUnreadable
	DiagStatusFailed          = "status_failed"
	DiagNotAWorktree          = "not_a_worktree"
	DiagStaleTempRemoved      = "stale_temp_removed"
	DiagIgnoredKept           = "ignored_files_kept"
	DiagTrashPruneFailed      = "trash_prune_failed"
)

// Tool is the name of the binary this package is the contract of.
const Tool = "stratos-worktree"
