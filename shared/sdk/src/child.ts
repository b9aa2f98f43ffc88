// The contract of generated child-workflow wrappers (.generated/<name>.ts):
// each wrapper default-exports a factory built on createChildWorkflow. Its
// names are a contract with the wrapper generator; keep them stable.

/** Overrides for one agent of a child workflow; fields merge over the child's workflow.yaml. */
export interface AgentOverride {
  harness?: string;
  provider?: string;
  model?: string | string[];
  effort?: string;
  [key: string]: unknown;
}

/** Overrides a parent binds when it creates a configured child-workflow object. */
export interface WorkflowOverrides {
  agents?: Record<string, AgentOverride>;
  decision?: Record<string, unknown>;
}

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

/** Options of {@link createChildWorkflow}. */
export interface ChildWorkflowOptions {
  overrides?: WorkflowOverrides;
}

/**
 * Binds a child-workflow reference and override defaults. It starts nothing:
 * every execute(input) is a separate child invocation.
 */
export function createChildWorkflow<I, O>(ref: ChildWorkflowReference, options?: ChildWorkflowOptions): ChildWorkflow<I, O> {
  for (const key of ["name", "dir", "entry"] as const) {
    if (typeof ref?.[key] !== "string" || ref[key] === "") {
      throw new TypeError(`createChildWorkflow(): reference.${key} must be a non-empty string`);
    }
  }
  const bound = Object.freeze({ ref: Object.freeze({ ...ref }), overrides: options?.overrides });
  return Object.freeze({
    execute(_input: I): Promise<O> {
      return Promise.reject(
        new Error(
          `child workflow execution is not available in this version: cannot execute workflow "${bound.ref.name}" (${bound.ref.entry}); this SDK only loads definitions`,
        ),
      );
    },
  });
}
