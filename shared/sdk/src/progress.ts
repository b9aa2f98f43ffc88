// Progress from workflow code: log(message) and phase(name) say what a
// workflow is doing, so that people watching a run (its stderr in the
// foreground, `stratos runs logs --follow` for any run) see more than agent
// events. Both work anywhere inside a workflow execution, children
// included: each line names the invocation it came from.
import { getContext } from "./context.js";
import type { CallReplayed } from "./events.js";

/** The event types progress is recorded as in the run's events.jsonl. */
export type ProgressType = "workflow.log" | "workflow.phase";

/** One progress line, as the runtime records it. @internal */
export interface ProgressEvent {
  type: ProgressType;
  /** The invocation that reported it (a child's own execution ID in a child). */
  executionId: string;
  workflow: string;
  details: { message: string } | { phase: string };
  /** The phase path it happened in (for workflow.phase: the one it entered); absent outside any. */
  phase?: string;
}

/**
 * The event the runtime records when a child invocation starts, before its
 * definition loads, so that a watcher (`stratos serve`, `stratos runs logs
 * --follow`) places the child under its parent while it runs, not only
 * once the run's tree is written at its end. @internal
 */
export interface ChildStartedEvent {
  type: "workflow.child.started";
  /** The child invocation's own execution ID. */
  executionId: string;
  /** The child's workflow name. */
  workflow: string;
  details: {
    /** The invocation that executed the child, and its workflow. */
    parentExecutionId: string;
    parentWorkflow: string;
    /** The top-level invocation's execution ID: the run's record. */
    runId: string;
  };
  /** The parent's phase (path) the child was executed in; absent outside any. */
  phase?: string;
}

/**
 * The event the runtime records when a child invocation has ended (its
 * agents and its own children closed), so that a watcher shows the child's
 * outcome while the run goes on, not only once the run's tree is written.
 * @internal
 */
export interface ChildCompletedEvent {
  type: "workflow.child.completed";
  /** The child invocation's own execution ID. */
  executionId: string;
  /** The child's workflow name. */
  workflow: string;
  details: ChildStartedEvent["details"] & {
    /** Its outcome, as in the run's tree. */
    status: "succeeded" | "failed" | "cancelled";
    /** From its start to its end, in milliseconds. */
    durationMs: number;
    /** Why it did not succeed, as in the run's tree. */
    error?: { code: string; message: string };
  };
  /** The parent's phase (path) the child was executed in; absent outside any. */
  phase?: string;
}

/** The event the runtime records for each call a resumed run answered from its journal. @internal */
export interface CallReplayedEvent {
  type: "call.replayed";
  /** The invocation that made the call. */
  executionId: string;
  workflow: string;
  details: CallReplayed;
}

/** What the runtime appends to the run's events.jsonl. @internal */
export type RecordedEvent = ProgressEvent | ChildStartedEvent | ChildCompletedEvent | CallReplayedEvent;

/**
 * Records a progress message of the current workflow execution: in the
 * run's events (type `workflow.log`) and, in a foreground run, on stderr.
 * Throws NoExecutionContextError outside a workflow execution.
 */
export function log(message: string): void {
  const ctx = getContext("log()");
  ctx.host.progress?.({ type: "workflow.log", executionId: ctx.executionId, workflow: ctx.workflow, details: { message: String(message) } });
}

/**
 * Records that the current workflow execution enters the phase `name`
 * (type `workflow.phase`): a coarser step than log, e.g. "plan", "fix",
 * "verify". The agent executes and child workflows started after it, in
 * the same flow, carry the phase on their events until the next phase(),
 * and `stratos runs show` and `stratos serve` group agents by it.
 *
 * With `fn`, the phase holds for fn only, and for everything fn starts,
 * however it runs alongside other code: `await phase("review", async () =>
 * ...)` resolves with fn's result. Use this form in concurrent branches
 * (`parallel`, `Promise.all`): phase(name) alone changes the phase of every
 * branch of the same scope. Phases nest: inside phase("review", fn), a call
 * runs in "review", and phase("fix") or phase("fix", fn2) there gives
 * "review/fix". phase(name, fn) does not nest in a phase(name) before it
 * (after phase("plan"), phase("review", fn) runs fn in "review", and the
 * calls after it are in "plan" again). A child workflow starts outside any
 * phase of its own; `stratos runs show` puts its phases under the parent's.
 * Throws NoExecutionContextError outside a workflow execution.
 */
export function phase(name: string): void;
export function phase<T>(name: string, fn: () => T | Promise<T>): Promise<T>;
export function phase<T>(name: string, fn?: () => T | Promise<T>): void | Promise<T> {
  const ctx = getContext("phase()");
  const record = (path: string) =>
    ctx.host.progress?.({ type: "workflow.phase", executionId: ctx.executionId, workflow: ctx.workflow, details: { phase: String(name) }, phase: path });
  if (fn === undefined) {
    record(ctx.enterPhase(String(name)));
    return;
  }
  return ctx.inPhase(String(name), fn, record);
}
