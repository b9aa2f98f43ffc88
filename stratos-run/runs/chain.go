package runs

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/stratoscli/stratos/shared/contract/journalapi"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// maxChain bounds how many executions back a resume looks for entries
// (a chain of resumes is a handful; a loop of resumedFrom links in
// damaged records must not recurse without end).
const maxChain = 64

// earlierEntries are the usable entries of the executions before the one
// whose journal header is h, as a resume of that one would have them:
// nothing when it resumed none, or when a journal of the chain is missing,
// unusable or not that execution's own (a header naming another).
func (s *Store) earlierEntries(h journalapi.Header, depth int) []journalapi.Entry {
	id := h.ResumedFrom
	if id == "" || depth > maxChain || !records.ValidExecutionID(id) {
		return nil
	}
	j, _, err := readJournal(filepath.Join(s.Dir, id))
	if err != nil || j.Header.ExecutionID != id {
		return nil
	}
	return inherit(j.Entries, s.earlierEntries(j.Header, depth+1))
}

// inherit completes newer, the entries of an execution that resumed
// another, with the entries of older (that other's, with what it
// inherited) whose places the execution did not reach. An execution copies
// each call it replays into its own journal, but one that ended before
// replaying everything (a resume refused by its budget before any call, an
// input that failed validation, a crash, a bug met early) holds only what
// it reached: without this, resuming it would make the rest of the chain's
// finished calls again.
//
// Only invocations the newer execution did not diverge in inherit, and
// none under one that did: a place the newer journal holds with another
// input, or a new agent object, child, MCP call or decision where the
// older journal has one the newer never claimed, is (or may be) a
// divergence, after which the older entries of that invocation may depend
// on what the diverging call changed. A divergence is so decided from the
// entries alone, since a crashed execution leaves no report of its own.
func inherit(newer, older []journalapi.Entry) []journalapi.Entry {
	if len(older) == 0 {
		return newer
	}
	olderAt := make(map[string]journalapi.Entry, len(older))
	for _, o := range older {
		olderAt[o.Identity()] = o
	}
	newerAt := make(map[string]bool, len(newer))
	for _, e := range newer {
		newerAt[e.Identity()] = true
	}
	olderMembers, newerMembers := members(older), members(newer)
	diverged := map[string]bool{}
	for _, e := range newer {
		if e.InputSHA256 == "" {
			continue
		}
		if o, ok := olderAt[e.Identity()]; ok {
			if o.InputSHA256 != e.InputSHA256 {
				diverged[e.Path] = true
			}
			continue
		}
		g, m, ok := member(e)
		if !ok || olderMembers[g][m] {
			continue
		}
		// A new member of a group: a divergence when the older journal
		// has a member of it that the newer one never claimed.
		for om := range olderMembers[g] {
			if !newerMembers[g][om] {
				diverged[e.Path] = true
				break
			}
		}
	}
	out := newer
	for _, o := range older {
		if !newerAt[o.Identity()] && !underDiverged(o.Path, diverged) {
			out = append(out, o)
		}
	}
	return out
}

// members are the members of each group the entries hold (see member).
func members(entries []journalapi.Entry) map[string]map[int]bool {
	out := map[string]map[int]bool{}
	for _, e := range entries {
		if g, m, ok := member(e); ok {
			if out[g] == nil {
				out[g] = map[int]bool{}
			}
			out[g][m] = true
		}
	}
	return out
}

// member is the group an entry's place is claimed in (the agents of one
// configuration and label, the invocations of one child, the calls of one
// MCP tool, the decisions of one invocation) and its number there.
func member(e journalapi.Entry) (group string, n int, ok bool) {
	switch {
	case e.Execute != nil:
		return fmt.Sprintf("agent %q %q %q", e.Path, e.Execute.ConfigID, e.Execute.Label), e.Execute.Agent, true
	case e.Child != nil && e.Kind == journalapi.KindChildStarted:
		return fmt.Sprintf("child %q %q", e.Path, e.Child.Name), e.Child.K, true
	case e.MCP != nil:
		return fmt.Sprintf("mcp %q %q %q", e.Path, e.MCP.Server, e.MCP.Tool), e.MCP.K, true
	case e.Decision != nil:
		return fmt.Sprintf("decision %q", e.Path), e.Decision.K, true
	}
	return "", 0, false
}

// underDiverged reports whether path, or an invocation it is a child of
// (a journal path is "<workflow>/<child>#<k>/..."), diverged.
func underDiverged(path string, diverged map[string]bool) bool {
	for p := path; ; {
		if diverged[p] {
			return true
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return false
		}
		p = p[:i]
	}
}
