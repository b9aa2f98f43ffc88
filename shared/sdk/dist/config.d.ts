/** Overrides for one agent configuration id; fields merge over the workflow's workflow.yaml. */
export interface AgentOverride {
    harness?: string;
    provider?: string;
    model?: string | string[];
    effort?: string;
    [key: string]: unknown;
}
/** Invocation overrides: `stratos run --overrides`, or what a parent binds to a child workflow object. */
export interface WorkflowOverrides {
    agents?: Record<string, AgentOverride>;
    decision?: Record<string, unknown>;
}
/** An invocation's resolved configuration (read-only). */
export interface WorkflowConfig {
    /** Agent configurations by configuration id. */
    readonly agents: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
    /** Decision settings. */
    readonly decision: Readonly<Record<string, unknown>>;
}
