// How the runner records progress (log, phase) and child starts and ends:
// one line appended to the run's events.jsonl, next to the agent host's
// events (each line is one write to a file opened for appending, so lines of
// the two writers never interleave), and for progress one line on stderr, which
// stratos run shows in a foreground run and keeps in console.log for a
// detached one.
import { openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { toError } from "./errors.js";
const eventsFile = "events.jsonl";
/** The event vocabulary's version every line carries (eventapi.Version in shared/contract/eventapi). */
const eventsVersion = 1;
/** @internal */
export function progressRecorder(runDir, warn) {
    // Captured now: workflow code replacing them later changes nothing here.
    const stringify = JSON.stringify;
    const write = writeSync;
    let fd;
    let failed = false;
    return (event) => {
        if (event.type === "workflow.log" || event.type === "workflow.phase") {
            const text = "message" in event.details ? event.details.message : `phase ${event.details.phase}`;
            process.stderr.write(`stratos: ${event.workflow}: ${text}\n`);
        }
        if (runDir === undefined || failed) {
            return;
        }
        try {
            fd ??= openSync(join(runDir, eventsFile), "a");
            const phase = "phase" in event ? event.phase : undefined;
            write(fd, stringify({ v: eventsVersion, type: event.type, timestamp: new Date().toISOString(), executionId: event.executionId, workflow: event.workflow, ...(phase ? { phase } : {}), details: event.details }) + "\n");
        }
        catch (err) {
            failed = true; // one warning, not one per line
            warn(`recording progress in ${join(runDir, eventsFile)} failed: ${toError(err).message}`);
        }
    };
}
