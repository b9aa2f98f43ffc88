// The execution context: one per workflow invocation (top-level or child),
// found by every primitive (agents, decisions, child workflows, MCP
// wrappers) through one AsyncLocalStorage. The store lives on globalThis
// under a registered symbol so that even two copies of the SDK in one process
// share it: two stores would silently lose the context. There is no mutable
// global "current execution": the store associates each asynchronous flow
// with its own context.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import type { WorkflowConfig, WorkflowOverrides, ManifestSections } from "./config.js";
import type { RecordedEvent } from "./progress.js";
import type { BudgetSource } from "./budget.js";
import type { Journal } from "./journal.js";
import { CancelledError, ContextClosedError, NoExecutionContextError, toError, errorCode } from "./errors.js";

/** Lifecycle of an execution context: running → closing (cleanup under way) → closed. */
export type ExecutionState = "running" | "closing" | "closed";

/** How an invocation ended (running while it has not). */
export type InvocationStatus = "running" | "succeeded" | "failed" | "cancelled";

/**
 * A resource an execution owns and closes when it ends (agents implement
 * this). close() must be safe to call more than once; a rejection is
 * reported as a warning, never as the execution's error.
 */
export interface OwnedResource {
  close(): Promise<void>;
}

/** One invocation in the run's invocation tree. */
export interface InvocationNode {
  executionId: string;
  workflow: string;
  status: InvocationStatus;
  startedAt: string;
  endedAt?: string;
  error?: { code: string; message: string };
  children: InvocationNode[];
}

/** A workflow of the discovery root, as `stratos run` describes it to the runtime. @internal */
export interface WorkflowTableEntry {
  /** The workflow directory (absolute). */
  dir: string;
  /** The compiled entry (absolute). */
  entry: string;
  /** Whether the workflow's build is current (it is in the closure of the workflow run, built before it started). */
  built: boolean;
  /** The workflows this one imports the generated wrappers of: the only children it may execute. */
  references?: string[];
  /** The MCP servers the workflow declares with oauth: their logins are checked before a child's run body. */
  oauthMcps?: string[];
  /** Its workflow.yaml's agents and decision sections. */
  config?: ManifestSections;
}

/** What every context of one run shares. @internal */
export interface RuntimeHost {
  /** The discovery root (absolute). */
  readonly rootDir: string;
  /** Every valid workflow of the root, by name. */
  readonly workflows: Readonly<Record<string, WorkflowTableEntry>>;
  /** Reports a soft problem (a resource that failed to close, ...). */
  warn(message: string): void;
  /** Records a progress line of workflow code (log, phase) or a child's start; absent: dropped. */
  progress?(event: RecordedEvent): void;
  /** The run's budget and spending; absent: no limits, nothing spent. */
  readonly budget?: BudgetSource;
  /** The run's durable journal; absent: calls are neither journalled nor replayed. */
  readonly journal?: Journal;
}

/** What workflow code may know about the invocation it runs in. */
export interface ExecutionInfo {
  /** This invocation's execution ID. */
  readonly executionId: string;
  /** This invocation's workflow name. */
  readonly workflow: string;
  /** The execution IDs of the enclosing invocations, top-level first (empty at the top level). */
  readonly parentExecutionIds: readonly string[];
  /** The workflows of the enclosing invocations, top-level first. */
  readonly parentWorkflows: readonly string[];
  /** The invocation overrides this invocation received. */
  readonly overrides: Readonly<WorkflowOverrides>;
  /** The invocation's configuration: its own workflow.yaml with the overrides merged in. */
  readonly config: WorkflowConfig;
}

/** What creating a context needs. @internal */
export interface ContextOptions {
  executionId: string;
  workflow: string;
  config: WorkflowConfig;
  overrides: WorkflowOverrides;
  host: RuntimeHost;
  parent?: ExecutionContext | undefined;
  /** The invocation's place in the run's journal (journal.ts); default: the workflow's name. */
  journalPath?: string;
}

/**
 * How long a cancelled workflow's run may take to settle before its
 * invocation ends without it. @internal
 */
export const cancelGraceMs = 3000;

/** One invocation's context. @internal */
export class ExecutionContext {
  readonly executionId: string;
  readonly workflow: string;
  readonly parent: ExecutionContext | undefined;
  readonly config: WorkflowConfig;
  readonly overrides: Readonly<WorkflowOverrides>;
  readonly host: RuntimeHost;
  /** This invocation's node in the invocation tree. */
  readonly node: InvocationNode;
  /** The invocation's place in the run's journal: the top-level workflow, then "<child>#<k>" per level. */
  readonly journalPath: string;

  /** The invocation's phases outside any phase(name, fn): set by phase(name). */
  readonly #rootPhase: PhaseFrame = { execution: this, path: "", current: "" };
  readonly #controller = new AbortController();
  readonly #resources = new Set<OwnedResource>();
  readonly #activeChildren = new Set<ExecutionContext>();
  readonly #closed: Promise<void>;
  #markClosed: () => void = () => {};
  #state: ExecutionState = "running";

  /** Creates the context of a new invocation; a child is adopted by its parent, which must be running. */
  constructor(options: ContextOptions) {
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
  get state(): ExecutionState {
    return this.#state;
  }

  /** Aborted when the invocation is cancelled (its reason is a CancelledError). */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The workflows from the top-level invocation down to this one. */
  workflowChain(): string[] {
    const chain: string[] = [];
    for (let c: ExecutionContext | undefined = this; c !== undefined; c = c.parent) {
      chain.unshift(c.workflow);
    }
    return chain;
  }

  /** Throws unless the context accepts new work: it must be running and not cancelled. */
  assertAccepting(operation: string): void {
    if (this.#state !== "running") {
      throw new ContextClosedError(operation, this.workflow, this.executionId, this.#state);
    }
    if (this.signal.aborted) {
      throw toError(this.signal.reason);
    }
  }

  /** Registers a resource the invocation owns; it is closed when the invocation ends. */
  register(resource: OwnedResource, operation = "registering a resource"): void {
    this.assertAccepting(operation);
    this.#resources.add(resource);
  }

  /** Forgets a resource that closed itself. */
  unregister(resource: OwnedResource): void {
    this.#resources.delete(resource);
  }

  /**
   * Cancels this invocation and its active descendants; the first reason
   * wins. The reason is usually a CancelledError; any other error (an
   * uncaught exception) fails this invocation, and its descendants are
   * cancelled because of it.
   */
  cancel(reason: Error): void {
    if (this.signal.aborted) {
      return;
    }
    this.#controller.abort(reason);
    const forChildren =
      reason instanceof CancelledError ? reason : new CancelledError(`cancelled because workflow "${this.workflow}" (${this.executionId}) failed`, { cause: reason });
    for (const child of this.#activeChildren) {
      child.cancel(forChildren);
    }
  }

  /**
   * Runs fn inside this context. Once the invocation is cancelled, fn gets
   * cancelGraceMs to settle (so that code listening to the signal can finish
   * its finally blocks); then the returned promise rejects without it.
   */
  run<T>(fn: () => T | Promise<T>): Promise<T> {
    const signal = this.signal;
    if (signal.aborted) {
      return Promise.reject(toError(signal.reason));
    }
    return new Promise<T>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
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
  async close(error: Error | undefined): Promise<void> {
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
    } else {
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
  phase(): string {
    const frame = this.#phaseFrame();
    return joinPhase(frame.path, frame.current);
  }

  /** Marks that the calling flow enters phase name (phase(name)); returns the phase's path. */
  enterPhase(name: string): string {
    const frame = this.#phaseFrame();
    frame.current = name;
    return joinPhase(frame.path, name);
  }

  /**
   * Runs fn inside phase name (phase(name, fn)), nested in the phase(name,
   * fn) around the caller but not in a phase(name) marker: a marker only
   * says which step sequential code is in. path receives its path first.
   */
  inPhase<T>(name: string, fn: () => T | Promise<T>, path: (path: string) => void): Promise<T> {
    const frame: PhaseFrame = { execution: this, path: joinPhase(this.#phaseFrame().path, name), current: "" };
    path(frame.path);
    return phaseStorage().run(frame, async () => fn());
  }

  // phaseFrame is the innermost phase(name, fn) of this invocation around
  // the caller; a frame of another invocation (the parent's, around a
  // child's execute) does not count.
  #phaseFrame(): PhaseFrame {
    const frame = phaseStorage().getStore();
    return frame !== undefined && frame.execution === this ? frame : this.#rootPhase;
  }

  /** The read-only view authors get. */
  info(): ExecutionInfo {
    const parents: ExecutionContext[] = [];
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

  #adopt(child: ExecutionContext): void {
    this.assertAccepting(`starting child workflow "${child.workflow}"`);
    this.#activeChildren.add(child);
    this.node.children.push(child.node);
  }
}

// PhaseFrame is one phase(name, fn) of an invocation (or its root, outside
// any): its path, and the last phase(name) called inside it. Frames live in
// their own AsyncLocalStorage, so that concurrent branches of one
// invocation, each in its phase(name, fn), each see their own.
interface PhaseFrame {
  readonly execution: ExecutionContext;
  readonly path: string;
  current: string;
}

function joinPhase(path: string, name: string): string {
  return path === "" ? name : name === "" ? path : `${path}/${name}`;
}

const phaseKey = Symbol.for("stratos.sdk.phase.als");

// phaseStorage is the process-wide store of phase frames, shared by every
// copy of the SDK as the context store is.
function phaseStorage(): AsyncLocalStorage<PhaseFrame> {
  const slot = globalThis as { [phaseKey]?: AsyncLocalStorage<PhaseFrame> };
  return (slot[phaseKey] ??= new AsyncLocalStorage<PhaseFrame>());
}

const storeKey = Symbol.for("stratos.sdk.als");

/** The process-wide context store. @internal */
export function contextStorage(): AsyncLocalStorage<ExecutionContext> {
  const slot = globalThis as { [storeKey]?: AsyncLocalStorage<ExecutionContext> };
  return (slot[storeKey] ??= new AsyncLocalStorage<ExecutionContext>());
}

/** The current invocation's context; throws NoExecutionContextError outside a running workflow. @internal */
export function getContext(primitive: string): ExecutionContext {
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
export function executionInfo(): ExecutionInfo {
  return getContext("executionInfo()").info();
}

/**
 * The AbortSignal of the invocation the calling code runs in: it aborts when
 * the invocation is cancelled (Ctrl-C, or its parent failed). Pass it to
 * long waits (timers, fetch, child processes) so that they stop promptly.
 * Throws NoExecutionContextError outside a running workflow.
 */
export function cancellationSignal(): AbortSignal {
  return getContext("cancellationSignal()").signal;
}

/** A new execution ID: UTC time to the second, then 8 random hex digits, e.g. 20261202T170000Z-1a2b3c4d. @internal */
export function newExecutionId(now: Date = new Date()): string {
  const stamp = now.toISOString().slice(0, 19).replace(/[-:]/g, "") + "Z";
  return `${stamp}-${randomBytes(4).toString("hex")}`;
}
