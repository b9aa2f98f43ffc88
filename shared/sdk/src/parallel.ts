// parallel and pipeline: barriers over async work with a concurrency limit,
// for fan-out code. They respect admission (docs/agents.md): each running thunk
// (or item) is one unit of work, so a concurrency no larger than
// agents.maxOutstanding never makes an agent call fail admission, where a
// Promise.all over more agents than that would.
//
// A failure either rejects the whole call (the default) or, with
// onError: "null", becomes null in its slot; only execution failures
// (isExecutionFailure) are turned into null: errors that say the workflow
// itself is broken, or that it was cancelled, always reject. On a rejection
// the work not started yet never starts, the signal handed to the running
// work aborts, and the call rejects once that work has settled: nothing a
// parallel or pipeline started outlives it. A parallel or pipeline started
// inside a thunk (or stage) aborts with the enclosing call's signal, so the
// signal to pass in nested fan-outs is always the innermost one, the one
// the running thunk was given.
import { AsyncLocalStorage } from "node:async_hooks";
import { contextStorage } from "./context.js";
import { ChildWorkflowError, toError } from "./errors.js";
import { isSdkError } from "./sdk-errors.js";

/** What a failure does: "reject" (the default) rejects the call; "null" puts null in the failed slot, for execution failures only. */
export type OnError = "reject" | "null";

/** The options of parallel and pipeline. */
export interface ParallelOptions {
  /** How many thunks (pipeline: items) run at once: a positive integer; unlimited when absent. */
  concurrency?: number;
  /** What an execution failure does; see {@link isExecutionFailure}. */
  onError?: OnError;
}

/** One unit of work: signal aborts when the call is abandoned (a sibling failed, or the execution was cancelled). */
export type Thunk<T> = (signal: AbortSignal) => T | PromiseLike<T>;

/** One stage of a pipeline: takes an item's previous value (the item itself for the first stage) and its index in items. */
export type Stage<I, O> = (value: I, index: number, signal: AbortSignal) => O | PromiseLike<O>;

/** A result slot: T, or T | null with onError: "null". */
export type Settled<T, O extends ParallelOptions | undefined> = O extends { onError: "null" } ? T | null : T;

/** The results of parallel: the thunks' awaited values, position by position (a tuple for a tuple of thunks). */
export type ParallelResults<Ts extends readonly Thunk<unknown>[], O extends ParallelOptions | undefined> = {
  -readonly [K in keyof Ts]: Ts[K] extends Thunk<infer R> ? Settled<Awaited<R>, O> : never;
};

// The codes of SDK errors that are failures of one execution (an agent's
// turn, its output, its harness session starting, an author hook, a child
// workflow's own run, a decision's answer) rather than of the workflow's
// configuration, the run's admission limit or its cancellation.
const executionCodes: ReadonlySet<string> = new Set(["execution", "structured_output", "initialization", "hook_failed", "output_validation", "decision_invalid_answer"]);

// Errors of the language runtime: bugs in the workflow's own code.
const programmingErrors = [TypeError, ReferenceError, SyntaxError, RangeError];

/**
 * Whether err is the failure of one execution, which onError: "null" turns
 * into null: an agent's execution, structured output, initialization or
 * hook failure; a decision's invalid answer; a child workflow that failed with one of those or with its
 * own error; or an error the workflow's code threw itself (not a
 * TypeError, ReferenceError, SyntaxError or RangeError, which are bugs).
 * Every other SDK error is not: configuration, prompt and template errors,
 * authentication, unavailable harnesses and models, admission, concurrent
 * use, cancellation, closed contexts, missing or unbuilt children, cycles,
 * invalid child input, and the host's internal and protocol errors.
 */
export function isExecutionFailure(err: unknown): boolean {
  if (err instanceof ChildWorkflowError) {
    return isExecutionFailure(err.cause);
  }
  if (isSdkError(err)) {
    return executionCodes.has(err.code);
  }
  if (err instanceof AggregateError) {
    // execute's own failure followed by its onError hook's: judged by the first.
    return err.errors.length > 0 && isExecutionFailure(err.errors[0]);
  }
  return err instanceof Error && !programmingErrors.some((cls) => err instanceof cls);
}

/**
 * Runs thunks, at most options.concurrency at a time, in order of
 * position, and resolves to their results in the same positions. With
 * onError: "null" an execution failure becomes null; any other failure
 * rejects: thunks not started are never started, the signal of the running
 * ones aborts, and the returned promise rejects with the first failure once
 * they have settled. A thunk that ignores its signal is awaited all the
 * same. Cancelling the execution works the same way (with CancelledError).
 */
export function parallel<const Ts extends readonly Thunk<unknown>[], const O extends ParallelOptions | undefined = undefined>(
  thunks: Ts,
  options?: O,
): Promise<ParallelResults<Ts, O>> {
  return run(thunks, options, "parallel()") as Promise<ParallelResults<Ts, O>>;
}

/**
 * Sends every item through the stages in order, each item on its own (item
 * 2 can be in stage 3 while item 1 is still in stage 1), at most
 * options.concurrency items at a time, and resolves to the last stage's
 * values in the items' positions. The options and failures behave as
 * parallel's, per item: with onError: "null" an item whose stage fails with
 * an execution failure skips the later stages and ends as null.
 */
export function pipeline<I, A, const O extends ParallelOptions | undefined = undefined>(items: readonly I[], s1: Stage<I, A>, options?: O): Promise<Settled<A, O>[]>;
export function pipeline<I, A, B, const O extends ParallelOptions | undefined = undefined>(
  items: readonly I[],
  s1: Stage<I, A>,
  s2: Stage<A, B>,
  options?: O,
): Promise<Settled<B, O>[]>;
export function pipeline<I, A, B, C, const O extends ParallelOptions | undefined = undefined>(
  items: readonly I[],
  s1: Stage<I, A>,
  s2: Stage<A, B>,
  s3: Stage<B, C>,
  options?: O,
): Promise<Settled<C, O>[]>;
export function pipeline<I, A, B, C, D, const O extends ParallelOptions | undefined = undefined>(
  items: readonly I[],
  s1: Stage<I, A>,
  s2: Stage<A, B>,
  s3: Stage<B, C>,
  s4: Stage<C, D>,
  options?: O,
): Promise<Settled<D, O>[]>;
export function pipeline<I, A, B, C, D, E, const O extends ParallelOptions | undefined = undefined>(
  items: readonly I[],
  s1: Stage<I, A>,
  s2: Stage<A, B>,
  s3: Stage<B, C>,
  s4: Stage<C, D>,
  s5: Stage<D, E>,
  options?: O,
): Promise<Settled<E, O>[]>;
export function pipeline(items: readonly unknown[], ...rest: unknown[]): Promise<unknown[]> {
  const last = rest[rest.length - 1];
  const options = typeof last === "function" ? undefined : (rest.pop() as ParallelOptions | undefined);
  if (!Array.isArray(items)) {
    return Promise.reject(new TypeError("pipeline(): items must be an array"));
  }
  if (rest.length === 0 || rest.some((s) => typeof s !== "function")) {
    return Promise.reject(new TypeError("pipeline(): give one or more stage functions after the items (and the options last)"));
  }
  const stages = rest as Stage<unknown, unknown>[];
  const thunks = items.map((item, index) => async (signal: AbortSignal) => {
    let value: unknown = item;
    for (const stage of stages) {
      signal.throwIfAborted();
      value = await stage(value, index, signal);
    }
    return value;
  });
  return run(thunks, options, "pipeline()");
}

/**
 * A type guard, not a filter: nonNull(value) says whether one value is
 * neither null nor undefined. Hand it to an array's filter to drop the
 * nulls, typed: `xs.filter(nonNull)` is NonNullable<T>[]. `nonNull(xs)` is
 * a boolean about the array itself.
 */
export function nonNull<T>(value: T): value is NonNullable<T> {
  return value !== null && value !== undefined;
}

function checkOptions(options: unknown, operation: string): ParallelOptions {
  if (options === undefined) {
    return {};
  }
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new TypeError(`${operation}: options must be an object { concurrency?, onError? }`);
  }
  for (const key of Object.keys(options)) {
    if (key !== "concurrency" && key !== "onError") {
      throw new TypeError(`${operation}: unknown option "${key}" (known: concurrency, onError)`);
    }
  }
  const { concurrency, onError } = options as ParallelOptions;
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency > 0)) {
    throw new TypeError(`${operation}: concurrency must be a positive integer, got ${String(concurrency)}`);
  }
  if (onError !== undefined && onError !== "reject" && onError !== "null") {
    throw new TypeError(`${operation}: onError must be "reject" or "null", got ${String(onError)}`);
  }
  return options as ParallelOptions;
}

const enclosingKey = Symbol.for("stratos.sdk.parallel.als");

// enclosingSignal holds the signal of the parallel or pipeline whose thunk
// is running: a call started inside that thunk follows it, as it follows
// the execution's cancellation, so that its thunks need only the signal
// they are given. Process-wide like the context store, so that two copies
// of the SDK nest too.
function enclosingSignal(): AsyncLocalStorage<AbortSignal> {
  const slot = globalThis as { [enclosingKey]?: AsyncLocalStorage<AbortSignal> };
  return (slot[enclosingKey] ??= new AsyncLocalStorage<AbortSignal>());
}

/** The shared scheduler of parallel and pipeline. */
async function run(thunks: readonly Thunk<unknown>[], rawOptions: unknown, operation: string): Promise<unknown[]> {
  if (!Array.isArray(thunks) || thunks.some((t) => typeof t !== "function")) {
    throw new TypeError(`${operation}: give an array of functions (thunks), e.g. items.map((x) => () => work(x))`);
  }
  const options = checkOptions(rawOptions, operation);
  const limit = options.concurrency ?? Number.POSITIVE_INFINITY;
  const keepGoing = options.onError === "null" ? isExecutionFailure : () => false;
  const controller = new AbortController();
  // Cancelling the execution, or abandoning the enclosing parallel or
  // pipeline, abandons the call like a failure does.
  const outers = [contextStorage().getStore()?.signal, enclosingSignal().getStore()].filter(nonNull);
  const onCancel = (outer: AbortSignal) => () => controller.abort(toError(outer.reason));
  const listeners = outers.map((outer) => {
    const listener = onCancel(outer);
    outer.addEventListener("abort", listener, { once: true });
    return { outer, listener };
  });
  const aborted = outers.find((outer) => outer.aborted);
  if (aborted !== undefined) {
    onCancel(aborted)();
  }

  const results = new Array<unknown>(thunks.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < thunks.length && !controller.signal.aborted) {
      const i = next++;
      try {
        results[i] = await enclosingSignal().run(controller.signal, () => thunks[i]!(controller.signal));
      } catch (err) {
        if (!controller.signal.aborted && keepGoing(err)) {
          results[i] = null;
          continue;
        }
        failure ??= { error: err };
        controller.abort(toError(err));
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(limit, thunks.length) }, worker));
  } finally {
    for (const { outer, listener } of listeners) {
      outer.removeEventListener("abort", listener);
    }
  }
  if (controller.signal.aborted) {
    // A cancellation that arrived with no thunk failing rejects with its reason.
    throw failure === undefined ? controller.signal.reason : toError(failure.error);
  }
  return results;
}
