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
export type Settled<T, O extends ParallelOptions | undefined> = O extends {
    onError: "null";
} ? T | null : T;
/** The results of parallel: the thunks' awaited values, position by position (a tuple for a tuple of thunks). */
export type ParallelResults<Ts extends readonly Thunk<unknown>[], O extends ParallelOptions | undefined> = {
    -readonly [K in keyof Ts]: Ts[K] extends Thunk<infer R> ? Settled<Awaited<R>, O> : never;
};
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
export declare function isExecutionFailure(err: unknown): boolean;
/**
 * Runs thunks, at most options.concurrency at a time, in order of
 * position, and resolves to their results in the same positions. With
 * onError: "null" an execution failure becomes null; any other failure
 * rejects: thunks not started are never started, the signal of the running
 * ones aborts, and the returned promise rejects with the first failure once
 * they have settled. A thunk that ignores its signal is awaited all the
 * same. Cancelling the execution works the same way (with CancelledError).
 */
export declare function parallel<const Ts extends readonly Thunk<unknown>[], const O extends ParallelOptions | undefined = undefined>(thunks: Ts, options?: O): Promise<ParallelResults<Ts, O>>;
/**
 * Sends every item through the stages in order, each item on its own (item
 * 2 can be in stage 3 while item 1 is still in stage 1), at most
 * options.concurrency items at a time, and resolves to the last stage's
 * values in the items' positions. The options and failures behave as
 * parallel's, per item: with onError: "null" an item whose stage fails with
 * an execution failure skips the later stages and ends as null.
 */
export declare function pipeline<I, A, const O extends ParallelOptions | undefined = undefined>(items: readonly I[], s1: Stage<I, A>, options?: O): Promise<Settled<A, O>[]>;
export declare function pipeline<I, A, B, const O extends ParallelOptions | undefined = undefined>(items: readonly I[], s1: Stage<I, A>, s2: Stage<A, B>, options?: O): Promise<Settled<B, O>[]>;
export declare function pipeline<I, A, B, C, const O extends ParallelOptions | undefined = undefined>(items: readonly I[], s1: Stage<I, A>, s2: Stage<A, B>, s3: Stage<B, C>, options?: O): Promise<Settled<C, O>[]>;
export declare function pipeline<I, A, B, C, D, const O extends ParallelOptions | undefined = undefined>(items: readonly I[], s1: Stage<I, A>, s2: Stage<A, B>, s3: Stage<B, C>, s4: Stage<C, D>, options?: O): Promise<Settled<D, O>[]>;
export declare function pipeline<I, A, B, C, D, E, const O extends ParallelOptions | undefined = undefined>(items: readonly I[], s1: Stage<I, A>, s2: Stage<A, B>, s3: Stage<B, C>, s4: Stage<C, D>, s5: Stage<D, E>, options?: O): Promise<Settled<E, O>[]>;
/**
 * A type guard, not a filter: nonNull(value) says whether one value is
 * neither null nor undefined. Hand it to an array's filter to drop the
 * nulls, typed: `xs.filter(nonNull)` is NonNullable<T>[]. `nonNull(xs)` is
 * a boolean about the array itself.
 */
export declare function nonNull<T>(value: T): value is NonNullable<T>;
