// Progress from workflow code: log(message) and phase(name) say what a
// workflow is doing, so that people watching a run (its stderr in the
// foreground, `stratos runs logs --follow` for any run) see more than agent
// events. Both work anywhere inside a workflow execution, children
// included: each line names the invocation it came from.
import { getContext } from "./context.js";
/**
 * Records a progress message of the current workflow execution: in the
 * run's events (type `workflow.log`) and, in a foreground run, on stderr.
 * Throws NoExecutionContextError outside a workflow execution.
 */
export function log(message) {
    const ctx = getContext("log()");
    ctx.host.progress?.({ type: "workflow.log", executionId: ctx.executionId, workflow: ctx.workflow, details: { message: String(message) } });
}
export function phase(name, fn) {
    const ctx = getContext("phase()");
    const record = (path) => ctx.host.progress?.({ type: "workflow.phase", executionId: ctx.executionId, workflow: ctx.workflow, details: { phase: String(name) }, phase: path });
    if (fn === undefined) {
        record(ctx.enterPhase(String(name)));
        return;
    }
    return ctx.inPhase(String(name), fn, record);
}
