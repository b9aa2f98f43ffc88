// The runner entry (`@stratoscli/stratos/runner`): `stratos run` starts
//   node <root>/node_modules/@stratoscli/stratos/dist/runner.js
// in the invoking working directory. Running the root's own SDK makes the
// runner, the workflows and their children share one SDK instance.
//
// Protocol with stratos run:
//   - stdin, first line: the invocation (RunnerInvocation, JSON);
//   - stdin, later lines: "cancel" cancels the run; the end of stdin (stratos
//     run went away) cancels it too and exits;
//   - fd 3: the result channel. The runner moves it out of workflow code's
//     reach before importing anything of the workflow (below) and writes one
//     framed line to it: "stratos-result <mac> <RunnerResult JSON>\n", where
//     <mac> is the hex HMAC-SHA256 of the JSON under the invocation's
//     resultKey. stratos run ignores every other byte on the channel;
//   - stdout and stderr belong to the workflow (stratos run passes both to
//     its stderr, keeping its own stdout for the output JSON).
import { createHmac } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";
import { deepFreeze, resolveConfig, type ManifestSections, type WorkflowConfig, type WorkflowOverrides } from "./config.js";
import type { ExecutionContext, InvocationNode, RuntimeHost, WorkflowTableEntry } from "./context.js";
import { importDefinition } from "./definition.js";
import { CancelledError, StratosError, errorChain, errorCode, orphanedCancellation, toError, type ErrorLink } from "./errors.js";
import { invoke } from "./invocation.js";
import { progressRecorder } from "./progress-record.js";
import { usageMeter } from "./usage-meter.js";
import { Journal, type CallUsage, type Divergence, type ReplaySource } from "./journal.js";
import type { BudgetLimits, BudgetSpent } from "./budget.js";

/** The invocation stratos run sends. @internal */
export interface RunnerInvocation {
  executionId: string;
  workflow: string;
  /** The compiled entry (absolute). */
  entry: string;
  rootDir: string;
  /** The run record's directory; progress is appended to its events.jsonl. */
  runDir?: string;
  /** The run's budget (absent fields: no limit). */
  budget?: BudgetLimits;
  /** What the executions the run resumes spent: budget.spent() counts it. */
  budgetCarried?: BudgetSpent;
  /** The per-run secret that keys the result frame's MAC (hex). */
  resultKey?: string;
  input: unknown;
  overrides?: WorkflowOverrides | null;
  /** With `stratos runs resume`: the journal entries of the execution resumed. */
  resume?: ReplaySource;
  /** Every valid workflow of the root, by name (the top-level one included). */
  workflows: Record<string, WorkflowTableEntry>;
}

/** An error as the runner reports it. @internal */
export interface ReportedError {
  code: string;
  name: string;
  message: string;
  details?: Record<string, unknown>;
  cause: ErrorLink[];
  stack?: string;
}

/** The one document the runner writes to fd 3. @internal */
export interface RunnerResult {
  status: "succeeded" | "failed" | "cancelled";
  output?: unknown;
  error?: ReportedError;
  tree?: InvocationNode | undefined;
  warnings: string[];
  /** On resume: how many calls the journal answered, and where the run first took another way. */
  resume?: ResumeReport;
}

/** What replaying the journal came to. @internal */
export interface ResumeReport {
  replayedCalls: number;
  /** What the replayed executes cost when they were made: nothing was spent on them again. */
  replayedUsage: CallUsage;
  divergences: Divergence[];
}

const inheritedResultFd = 3;
const framePrefix = "stratos-result";
// How long the runner waits for cleanup after stratos run went away before
// it exits anyway: nobody is left to report to.
const orphanGraceMs = 5000;

// What the result is written with, captured before workflow code runs: a
// workflow replacing JSON.stringify or fs.writeSync later changes nothing here.
const stringify = JSON.stringify;
const write = writeSync;
const hmac = createHmac;
const resultChannel = takeResultChannel();
// The result frame's key: read from the invocation, kept only in this module.
let resultKey: string | undefined;

const controller = new AbortController();
const warnings: string[] = [];
let top: ExecutionContext | undefined;
let journal: Journal | undefined;
// Set to 1, the run keeps no journal and cannot be resumed: the baseline
// scripts/bench-agents measures the journal's cost against
// (docs/performance.md). Not for runs anyone may want to resume.
const noJournalEnv = "STRATOS_BENCH_NO_JOURNAL";

function cancel(message: string): void {
  controller.abort(new CancelledError(message));
}

function warn(message: string): void {
  warnings.push(message);
  process.stderr.write(`stratos: warning: ${message}\n`);
}

async function main(): Promise<RunnerResult> {
  let invocation: RunnerInvocation;
  try {
    invocation = JSON.parse(await firstLine()) as RunnerInvocation;
    resultKey = invocation.resultKey;
    delete invocation.resultKey;
  } catch (err) {
    return failed(new StratosError("runner_protocol", `reading the invocation from stdin failed: ${toError(err).message}`));
  }
  const host: RuntimeHost = {
    rootDir: invocation.rootDir,
    workflows: invocation.workflows ?? {},
    warn,
    progress: progressRecorder(invocation.runDir, warn),
    budget: usageMeter(invocation.runDir, invocation.budget ?? {}, invocation.budgetCarried),
    ...(process.env[noJournalEnv] === "1" ? {} : { journal: (journal = new Journal(invocation.runDir, warn, invocation.resume)) }),
  };
  const overrides = deepFreeze(invocation.overrides ?? {});
  let config: WorkflowConfig;
  try {
    const own: ManifestSections | undefined = host.workflows[invocation.workflow]?.config;
    config = resolveConfig(own, overrides, `${host.workflows[invocation.workflow]?.dir ?? invocation.workflow}/workflow.yaml`);
  } catch (err) {
    return failed(toError(err));
  }
  try {
    const output = await invoke({
      workflow: invocation.workflow,
      executionId: invocation.executionId,
      load: () => importDefinition(invocation.entry),
      input: invocation.input,
      config,
      overrides,
      host,
      signal: controller.signal,
      onContext: (ctx) => (top = ctx),
    });
    return { status: "succeeded", output: toJSONValue(output), tree: top?.node, warnings, ...resumeReport() };
  } catch (err) {
    const error = toError(err);
    return failed(error, controller.signal.aborted && error instanceof CancelledError ? "cancelled" : "failed");
  }
}

function failed(error: Error, status: "failed" | "cancelled" = "failed"): RunnerResult {
  return { status, error: reportError(error), tree: top?.node, warnings, ...resumeReport() };
}

function resumeReport(): { resume?: ResumeReport } {
  if (journal?.resuming !== true) {
    return {};
  }
  return { resume: { replayedCalls: journal.replayedCalls(), replayedUsage: journal.replayedUsage(), divergences: journal.divergences() } };
}

function reportError(error: Error): ReportedError {
  const report: ReportedError = { code: errorCode(error), name: error.name, message: error.message, cause: errorChain(error) };
  if (error instanceof StratosError && Object.keys(error.details).length > 0) {
    report.details = error.details;
  }
  if (error.stack !== undefined) {
    report.stack = error.stack;
  }
  return report;
}

// toJSONValue makes sure the output survives JSON: what cannot be serialized
// fails here, as the workflow's error, rather than as a broken document.
function toJSONValue(value: unknown): unknown {
  const text = JSON.stringify(value);
  if (text === undefined) {
    throw new StratosError("output_not_json", "the workflow's output cannot be represented as JSON");
  }
  return JSON.parse(text);
}

// firstLine reads stdin up to the first newline, then keeps listening: later
// lines are commands, and the end of stdin means stratos run is gone.
function firstLine(): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = "";
    let delivered = false;
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (chunk: string) => {
      buffered += chunk;
      for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (!delivered) {
          delivered = true;
          resolve(line);
        } else if (line.trim() === "cancel") {
          cancel("the run was interrupted");
        }
      }
    });
    process.stdin.on("end", () => {
      if (!delivered) {
        reject(new Error("stdin ended before the invocation"));
        return;
      }
      controller.abort(orphanedCancellation("stratos run went away: the run was cancelled"));
      setTimeout(() => process.exit(1), orphanGraceMs).unref();
    });
  });
}

// takeResultChannel reopens the inherited fd 3 on a descriptor of its own
// (opened close-on-exec, so processes the workflow starts do not inherit it)
// and closes fd 3, before any workflow code is imported. Without /proc (not
// Linux) fd 3 stays where it is; the frame's MAC still protects the result.
function takeResultChannel(): number | undefined {
  try {
    const fd = openSync(`/proc/self/fd/${inheritedResultFd}`, "w");
    closeSync(inheritedResultFd);
    return fd;
  } catch {
    try {
      write(inheritedResultFd, "");
      return inheritedResultFd;
    } catch {
      return undefined; // run by hand, without fd 3
    }
  }
}

function writeResult(result: RunnerResult): void {
  const json = serialize(result);
  if (resultChannel === undefined || resultKey === undefined) {
    // Run by hand: print the result where a person can see it.
    writeAll(1, Buffer.from(json + "\n"));
    return;
  }
  const mac = hmac("sha256", Buffer.from(resultKey, "hex")).update(json).digest("hex");
  writeAll(resultChannel, Buffer.from(`${framePrefix} ${mac} ${json}\n`));
}

// writeAll writes the whole buffer: writeSync may write less than asked.
function writeAll(fd: number, data: Buffer): void {
  for (let off = 0; off < data.length; ) {
    off += write(fd, data, off, data.length - off);
  }
}

// serialize encodes the result. Only error details can fail to serialize (the
// output was checked by toJSONValue): then the error goes without them.
function serialize(result: RunnerResult): string {
  try {
    return stringify(result);
  } catch {
    return stringify({ ...result, error: result.error === undefined ? undefined : { ...result.error, details: undefined } });
  }
}

process.on("SIGINT", () => cancel("the run was interrupted (SIGINT)"));
process.on("SIGTERM", () => cancel("the run was terminated (SIGTERM)"));
// An exception nobody can catch (thrown from a timer, say) fails the run: the
// top-level invocation is cancelled and cleaned up, and the exception is
// reported as the error.
process.on("uncaughtException", (err) => {
  const error = toError(err);
  process.stderr.write(`stratos: uncaught exception: ${error.stack ?? error.message}\n`);
  controller.abort(new StratosError("uncaught_exception", `uncaught exception: ${error.message}`, { cause: error }));
});
// A rejected promise nobody awaited (a child started and never awaited, say)
// is reported, not fatal: the workflow's own result decides the run.
process.on("unhandledRejection", (reason) => {
  warn(`unhandled promise rejection: ${toError(reason).message}`);
});

const result = await main();
await journal?.flush();
writeResult(result);
// Exit now: timers or sockets the workflow left open must not keep the run alive.
process.exit(result.status === "succeeded" ? 0 : 1);
