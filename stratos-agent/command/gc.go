package command

import (
	"runtime/debug"
)

// hostGCPercent is the agent host's GOGC. Its live heap stays near 1 MB for
// a whole workflow (sessions, pending calls, the current turn's messages),
// but Go's default (100, with a 4 MB minimum goal) lets it touch 4 MB of
// fresh pages before the first collection, and those pages stay resident
// for as long as the workflow runs. At 25 the goal is 1 MB above the live
// heap: measured with scripts/bench-codex (20 codex turns), the host's peak
// RSS goes from 16.8 MB to 15.9 MB for about ten collections of a 1 MB
// heap, each well under a millisecond.
const hostGCPercent = 25

// tuneHostGC applies hostGCPercent unless the user set GOGC, which then
// wins as it does for any Go program.
func tuneHostGC(getenv func(string) string) {
	if getenv("GOGC") != "" {
		return
	}
	debug.SetGCPercent(hostGCPercent)
}
