// The execution context: one per workflow invocation (top-level or child),
// found by every primitive (agents, decisions, child workflows, MCP
// wrappers) through one AsyncLocalStorage. The store lives on globalThis
// under a registered symbol so that even two copies of the SDK in one process
// share it: two stores would silently lose the context. There is no mutable
// global "current execution": the store associates each asynchronous flow
// with its own context.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import { CancelledError, ContextClosedError, NoExecutionContextError, toError, errorCode } from "./errors.js";
/**
 * How long a cancelled workflow's run may take to settle before its
 * invocation ends without it. @internal
 */
export const cancelGraceMs = 3000;
/** One invocation's context. @internal */
export class ExecutionContext {
    executionId;
    workflow;
    parent;
    config;
    overrides;
    host;
    /** This invocation's node in the invocation tree. */
    node;
    /** The invocation's place in the run's journal: the top-level workflow, then "<child>#<k>" per level. */
    journalPath;
    /** The invocation's phases outside any phase(name, fn): set by phase(name). */
    #rootPhase = { execution: this, path: "", current: "" };
    #controller = new AbortController();
    #resources = new Set();
    #activeChildren = new Set();
    #closed;
    #markClosed = () => { };
    #state = "running";
    /** Creates the context of a new invocation; a child is adopted by its parent, which must be running. */
    constructor(options) {
        this.executionId = options.executionId;
        this.workflow = options.workflow;
        this.parent = options.parent;
        this.config = options.config;
        this.overrides = options.overrides;
        this.host = options.host;
        this.journalPath = options.journalPath ?? options.workflow;
        this.node = { executionId: this.executionId, workflow: this.workflow, status: "running", startedAt: new Date().toISOString(), children: [] };
        this.#closed = new Promise((resolve) => (this.#markClosed = resolve));
        if (this.parent !== undefined) {
            this.parent.#adopt(this);
        }
    }
    /** The lifecycle state. */
    get state() {
        return this.#state;
    }
    /** Aborted when the invocation is cancelled (its reason is a CancelledError). */
    get signal() {
        return this.#controller.signal;
    }
    /** The workflows from the top-level invocation down to this one. */
    workflowChain() {
        const chain = [];
        for (let c = this; c !== undefined; c = c.parent) {
            chain.unshift(c.workflow);
        }
        return chain;
    }
    /** Throws unless the context accepts new work: it must be running and not cancelled. */
    assertAccepting(operation) {
        if (this.#state !== "running") {
            throw new ContextClosedError(operation, this.workflow, this.executionId, this.#state);
        }
        if (this.signal.aborted) {
            throw toError(this.signal.reason);
        }
    }
    /** Registers a resource the invocation owns; it is closed when the invocation ends. */
    register(resource, operation = "registering a resource") {
        this.assertAccepting(operation);
        this.#resources.add(resource);
    }
    /** Forgets a resource that closed itself. */
    unregister(resource) {
        this.#resources.delete(resource);
    }
    /**
     * Cancels this invocation and its active descendants; the first reason
     * wins. The reason is usually a CancelledError; any other error (an
     * uncaught exception) fails this invocation, and its descendants are
     * cancelled because of it.
     */
    cancel(reason) {
        if (this.signal.aborted) {
            return;
        }
        this.#controller.abort(reason);
        const forChildren = reason instanceof CancelledError ? reason : new CancelledError(`cancelled because workflow "${this.workflow}" (${this.executionId}) failed`, { cause: reason });
        for (const child of this.#activeChildren) {
            child.cancel(forChildren);
        }
    }
    /**
     * Runs fn inside this context. Once the invocation is cancelled, fn gets
     * cancelGraceMs to settle (so that code listening to the signal can finish
     * its finally blocks); then the returned promise rejects without it.
     */
    run(fn) {
        const signal = this.signal;
        if (signal.aborted) {
            return Promise.reject(toError(signal.reason));
        }
        return new Promise((resolve, reject) => {
            let timer;
            const onAbort = () => {
                timer = setTimeout(() => reject(toError(signal.reason)), cancelGraceMs);
            };
            signal.addEventListener("abort", onAbort, { once: true });
            contextStorage()
                .run(this, async () => fn())
                .then(resolve, reject)
                .finally(() => {
                signal.removeEventListener("abort", onAbort);
                clearTimeout(timer);
            });
        });
    }
    /**
     * Ends the invocation: stops new work, cancels active children and awaits
     * them, closes every owned resource (all of them, whatever fails), and
     * records the outcome in the tree node. error is the invocation's error,
     * if it failed. Repeated calls wait for the first.
     */
    async close(error) {
        if (this.#state !== "running") {
            return this.#closed;
        }
        this.#state = "closing";
        const children = [...this.#activeChildren];
        if (children.length > 0) {
            const why = error === undefined ? "finished" : "failed";
            const reason = new CancelledError(`cancelled because its parent workflow "${this.workflow}" (${this.executionId}) ${why}`, { cause: error });
            for (const child of children) {
                child.cancel(reason);
            }
            await Promise.allSettled(children.map((c) => c.#closed));
        }
        const resources = [...this.#resources];
        this.#resources.clear();
        const results = await Promise.allSettled(resources.map((r) => Promise.resolve().then(() => r.close())));
        for (const r of results) {
            if (r.status === "rejected") {
                this.host.warn(`workflow "${this.workflow}" (${this.executionId}): closing a resource failed: ${toError(r.reason).message}`);
            }
        }
        this.node.endedAt = new Date().toISOString();
        if (error === undefined) {
            this.node.status = "succeeded";
        }
        else {
            this.node.status = error instanceof CancelledError && this.signal.aborted ? "cancelled" : "failed";
            this.node.error = { code: errorCode(error), message: error.message };
        }
        this.#state = "closed";
        if (this.parent !== undefined) {
            this.parent.#activeChildren.delete(this);
        }
        this.#markClosed();
    }
    /**
     * The phase the calling code runs in, as a path of nested phases
     * ("review/fix"; "" outside any): the innermost phase(name, fn) of this
     * invocation around the caller's asynchronous flow, followed by the last
     * phase(name) called in it. A child invocation starts outside any phase:
     * its parent's phase is on its start and end, not on its own calls.
     */
    phase() {
        const frame = this.#phaseFrame();
        return joinPhase(frame.path, frame.current);
    }
    /** Marks that the calling flow enters phase name (phase(name)); returns the phase's path. */
    enterPhase(name) {
        const frame = this.#phaseFrame();
        frame.current = name;
        return joinPhase(frame.path, name);
    }
    /**
     * Runs fn inside phase name (phase(name, fn)), nested in the phase(name,
     * fn) around the caller but not in a phase(name) marker: a marker only
     * says which step sequential code is in. path receives its path first.
     */
    inPhase(name, fn, path) {
        const frame = { execution: this, path: joinPhase(this.#phaseFrame().path, name), current: "" };
        path(frame.path);
        return phaseStorage().run(frame, async () => fn());
    }
    // phaseFrame is the innermost phase(name, fn) of this invocation around
    // the caller; a frame of another invocation (the parent's, around a
    // child's execute) does not count.
    #phaseFrame() {
        const frame = phaseStorage().getStore();
        return frame !== undefined && frame.execution === this ? frame : this.#rootPhase;
    }
    /** The read-only view authors get. */
    info() {
        const parents = [];
        for (let c = this.parent; c !== undefined; c = c.parent) {
            parents.unshift(c);
        }
        return Object.freeze({
            executionId: this.executionId,
            workflow: this.workflow,
            parentExecutionIds: Object.freeze(parents.map((p) => p.executionId)),
            parentWorkflows: Object.freeze(parents.map((p) => p.workflow)),
            overrides: this.overrides,
            config: this.config,
        });
    }
    #adopt(child) {
        this.assertAccepting(`starting child workflow "${child.workflow}"`);
        this.#activeChildren.add(child);
        this.node.children.push(child.node);
    }
}
function joinPhase(path, name) {
    return path === "" ? name : name === "" ? path : `${path}/${name}`;
}
const phaseKey = Symbol.for("stratos.sdk.phase.als");
// phaseStorage is the process-wide store of phase frames, shared by every
// copy of the SDK as the context store is.
function phaseStorage() {
    const slot = globalThis;
    return (slot[phaseKey] ??= new AsyncLocalStorage());
}
const storeKey = Symbol.for("stratos.sdk.als");
/** The process-wide context store. @internal */
export function contextStorage() {
    const slot = globalThis;
    return (slot[storeKey] ??= new AsyncLocalStorage());
}
/** The current invocation's context; throws NoExecutionContextError outside a running workflow. @internal */
export function getContext(primitive) {
    const ctx = contextStorage().getStore();
    if (ctx === undefined) {
        throw new NoExecutionContextError(primitive);
    }
    return ctx;
}
/**
 * Describes the invocation the calling code runs in: its execution ID,
 * workflow, enclosing invocations, overrides and resolved configuration.
 * Throws NoExecutionContextError outside a running workflow.
 */
export function executionInfo() {
    return getContext("executionInfo()").info();
}
/**
 * The AbortSignal of the invocation the calling code runs in: it aborts when
 * the invocation is cancelled (Ctrl-C, or its parent failed). Pass it to
 * long waits (timers, fetch, child processes) so that they stop promptly.
 * Throws NoExecutionContextError outside a running workflow.
 */
export function cancellationSignal() {
    return getContext("cancellationSignal()").signal;
}
/** A new execution ID: UTC time to the second, then 8 random hex digits, e.g. 20261202T170000Z-1a2b3c4d. @internal */
export function newExecutionId(now = new Date()) {
    const stamp = now.toISOString().slice(0, 19).replace(/[-:]/g, "") + "Z";
    return `${stamp}-${randomBytes(4).toString("hex")}`;
}
