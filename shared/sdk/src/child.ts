// Child workflows. Generated wrappers (.generated/<name>.ts) default-export a
// factory built on createChildWorkflow; its names are a contract with the
// wrapper generator, keep them stable. createChildWorkflow is not part of the
// public entry: the wrappers import it from "@stratoscli/stratos/generated",
// and a child runs only when the calling workflow imports its wrapper (the
// build then keeps the child fresh), never by a name looked up at run time.
import { configPart, overridesProblem, resolveConfig, cloneData, deepFreeze, type AgentOverride, type WorkflowOverrides } from "./config.js";
import { getContext, newExecutionId, type ExecutionContext } from "./context.js";
import { importDefinition } from "./definition.js";
import { CancelledError, ChildWorkflowError, toError, WorkflowCycleError, WorkflowNotBuiltError, WorkflowNotFoundError, WorkflowNotReferencedError } from "./errors.js";
import { invoke } from "./invocation.js";
import { inputHash, type ChildPlace } from "./journal.js";
import { authenticateMcps } from "./mcp.js";

export type { AgentOverride, WorkflowOverrides } from "./config.js";

/** A configured child workflow: each execute(input) starts a fresh child invocation. */
export interface ChildWorkflow<I, O> {
  execute(input: I): Promise<O>;
}

/** Where a child workflow lives in the discovery root. */
export interface ChildWorkflowReference {
  /** The workflow's name from its workflow.yaml. */
  name: string;
  /** The workflow's directory, relative to the discovery root. */
  dir: string;
  /** The compiled entry, relative to the discovery root, e.g. "summarize/dist/summarize/workflow.js". */
  entry: string;
}

/** Options of {@link createChildWorkflow} and of the generated wrappers' factories. */
export interface ChildWorkflowOptions {
  /**
   * Overrides bound to every execute of the child. "inherit": the calling
   * invocation's agent overrides instead (see inheritOverrides). Default: none,
   * the child uses its own workflow.yaml.
   */
  overrides?: WorkflowOverrides | "inherit";
  /**
   * With explicit overrides: merge them over the calling invocation's agent
   * overrides (explicit fields win). Inherited entries apply only to the
   * configurations the child declares ("configId" or "configId#label").
   */
  inheritOverrides?: boolean;
}

/**
 * Binds a child-workflow reference and override defaults. It starts nothing:
 * every execute(input) is a separate child invocation with its own execution
 * ID, context, resources and cleanup, configured from the child's own
 * workflow.yaml with these overrides merged in (the caller's configuration
 * and overrides never carry over). execute rejects with WorkflowCycleError
 * when the child is already running as an ancestor of the call, and with
 * ChildWorkflowError (cause: the child's own error) when the child fails.
 */
export function createChildWorkflow<I, O>(ref: ChildWorkflowReference, options?: ChildWorkflowOptions): ChildWorkflow<I, O> {
  for (const key of ["name", "dir", "entry"] as const) {
    if (typeof ref?.[key] !== "string" || ref[key] === "") {
      throw new TypeError(`createChildWorkflow(): reference.${key} must be a non-empty string`);
    }
  }
  const inherit = options?.overrides === "inherit" || options?.inheritOverrides === true;
  const explicit = options?.overrides === "inherit" ? undefined : options?.overrides;
  const problem = overridesProblem(explicit);
  if (problem !== "") {
    throw new TypeError(`createChildWorkflow(): overrides of workflow "${ref.name}": ${problem}`);
  }
  if (options?.inheritOverrides !== undefined && typeof options.inheritOverrides !== "boolean") {
    throw new TypeError(`createChildWorkflow(): inheritOverrides of workflow "${ref.name}" must be a boolean`);
  }
  const name = ref.name;
  // A private copy: the caller changing its object later must not change
  // what this configured object binds.
  const bound: WorkflowOverrides = deepFreeze(cloneData(explicit ?? {}));
  return Object.freeze({
    execute(input: I): Promise<O> {
      return executeChild(name, bound, inherit, input) as Promise<O>;
    },
  });
}

// withInherited merges bound over the caller's agent overrides that name a
// configuration the child declares (the caller's were checked against the
// caller's own workflow.yaml; the rest mean nothing to the child). The
// caller's decision overrides are its own and never carry over.
function withInherited(bound: WorkflowOverrides, inherited: WorkflowOverrides, declared: unknown): WorkflowOverrides {
  const known = typeof declared === "object" && declared !== null ? declared : {};
  const agents: Record<string, AgentOverride> = {};
  for (const [target, fields] of Object.entries(inherited.agents ?? {})) {
    if (Object.hasOwn(known, configPart(target))) {
      agents[target] = { ...fields };
    }
  }
  for (const [target, fields] of Object.entries(bound.agents ?? {})) {
    agents[target] = { ...(agents[target] ?? {}), ...fields };
  }
  const out: WorkflowOverrides = { ...bound };
  if (Object.keys(agents).length > 0) {
    out.agents = agents;
  }
  return deepFreeze(out);
}

async function executeChild(name: string, bound: WorkflowOverrides, inherit: boolean, input: unknown): Promise<unknown> {
  const operation = `execute() of child workflow "${name}"`;
  const parent = getContext(operation);
  parent.assertAccepting(operation);
  const chain = parent.workflowChain();
  if (chain.includes(name)) {
    throw new WorkflowCycleError([...chain, name]);
  }
  const caller = Object.hasOwn(parent.host.workflows, parent.workflow) ? parent.host.workflows[parent.workflow] : undefined;
  if (!(caller?.references ?? []).includes(name)) {
    throw new WorkflowNotReferencedError(name, parent.workflow);
  }
  const target = Object.hasOwn(parent.host.workflows, name) ? parent.host.workflows[name] : undefined;
  if (target === undefined) {
    throw new WorkflowNotFoundError(name, parent.host.rootDir);
  }
  if (!target.built) {
    throw new WorkflowNotBuiltError(name, target.dir);
  }
  const executionId = newExecutionId();
  const overrides = inherit ? withInherited(bound, parent.overrides, target.config?.agents) : bound;
  const journal = parent.host.journal;
  const place = journal?.startChild(parent.journalPath, name, inputHash({ input, overrides }));
  if (place?.completed !== undefined) {
    journal?.replayed(parent, "workflow.child", name, place.k);
    return place.completed.child?.output; // it succeeded in the execution being resumed
  }
  try {
    const config = resolveConfig(target.config, overrides, `${target.dir}/workflow.yaml`);
    const output = await invoke({
      workflow: name,
      executionId,
      load: () => importDefinition(target.entry),
      input,
      config,
      overrides,
      host: parent.host,
      parent,
      ...(place === undefined ? {} : { journalPath: place.path }),
      ...((target.oauthMcps ?? []).length > 0 ? { beforeRun: (ctx: ExecutionContext) => authenticateMcps(ctx, target.dir) } : {}),
    });
    recordEnd(parent, name, place, "succeeded", output);
    return output;
  } catch (err) {
    const error = toError(err);
    recordEnd(parent, name, place, error instanceof CancelledError ? "cancelled" : "failed", undefined, error);
    throw new ChildWorkflowError(name, executionId, error);
  }
}

// recordEnd journals how a child ended.
function recordEnd(parent: ExecutionContext, name: string, place: ChildPlace | undefined, status: string, output: unknown, error?: Error): void {
  if (place !== undefined) {
    parent.host.journal?.endChild(parent.journalPath, name, place, status, output, error);
  }
}
