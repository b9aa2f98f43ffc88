// Package childcheck holds a test over the repository's sources: every
// child process a Stratos tool starts goes through shared/procgroup, which
// puts it in a group of its own with a parent-death signal, so that no
// child outlives the tool that started it (a git fetch, an auth check, a
// status question would otherwise run on after a kill -9).
package childcheck
