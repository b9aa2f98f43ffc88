/** Every method name (SDK → host and host → SDK). */
export declare const Methods: {
    readonly initialize: "initialize";
    readonly agentExecute: "agent.execute";
    readonly agentCancel: "agent.cancel";
    readonly agentClose: "agent.close";
    readonly executionClose: "execution.close";
    readonly shutdown: "shutdown";
    readonly hookBeforeToolCall: "hook.beforeToolCall";
    readonly hookAfterToolCall: "hook.afterToolCall";
    readonly hookOnStart: "hook.onStart";
    readonly event: "event";
};
/** Every agent error code (error.data.code of an error response). */
export declare const ErrorCodes: readonly ["admission", "authentication", "cancelled", "concurrent_use", "configuration", "context_closed", "execution", "harness_unavailable", "hook_failed", "initialization", "internal", "model_unavailable", "prompt_file", "protocol", "structured_output", "template_variable_missing"];
export type ErrorCode = (typeof ErrorCodes)[number];
/** The JSON-RPC error code of agent errors. */
export declare const RPCAgentError = -32000;
export interface InitializeParams {
    protocolVersion: number;
    executionId: string;
    runDir?: string;
    settings?: Settings;
    events?: boolean;
}
export interface Settings {
    maxConcurrent: number;
    maxOutstanding: number;
}
export interface InitializeResult {
    protocolVersion: number;
    version: string;
    settings: Settings;
    eventsFile: string;
}
export interface WorkflowRef {
    name: string;
    dir: string;
}
export interface Overrides {
    agents?: Record<string, AgentConfig>;
}
export type PromptSource = string | {
    file: string;
} | {
    template: string;
} | {
    configId: string;
};
export interface TemplateVariables {
    systemPrompt?: Record<string, unknown>;
    prompt?: Record<string, unknown>;
}
export interface Worktree {
    enabled: boolean;
    name?: string;
    cleanup?: boolean;
}
/** An agent configuration: createAgent fields, an override entry or a workflow.yaml entry. */
export interface AgentConfig {
    configId?: string;
    harness?: string;
    provider?: string;
    model?: string | string[];
    effort?: string;
    systemPrompt?: PromptSource;
    prompt?: PromptSource;
    templateVariables?: TemplateVariables;
    allowedMcps?: string[];
    allowedTools?: string[];
    disallowedTools?: string[];
    workingDirectory?: string;
    worktree?: Worktree;
    test?: unknown;
}
export interface ExecuteParams {
    agentId: string;
    name: string;
    call: number;
    executionId: string;
    workflow: WorkflowRef;
    cwd: string;
    overrides?: Overrides;
    config: AgentConfig;
    hooks?: string[];
    outputSchema?: Record<string, unknown>;
    prompt: PromptSource;
    templateVariables?: Record<string, unknown>;
}
export interface ExecuteResult {
    text?: string;
    value?: unknown;
}
export interface AgentRef {
    agentId: string;
}
export interface CancelParams {
    agentId: string;
    call: number;
}
export interface ExecutionRef {
    executionId: string;
}
export interface CloseResult {
    closed: number;
}
export interface ToolCallParams {
    agentId: string;
    executionId: string;
    toolCallId: string;
    toolName: string;
    input: unknown;
}
export interface AfterToolCallParams {
    agentId: string;
    executionId: string;
    toolCallId: string;
    toolName: string;
    input: unknown;
    output?: unknown;
    error?: ToolError;
}
export interface ToolError {
    message: string;
}
export interface BeforeToolCallResult {
    action: "allow" | "deny" | "modify";
    reason?: string;
    arguments?: Record<string, unknown>;
}
export interface AfterToolCallResult {
    action: "block";
    reason?: string;
}
export interface LifecycleParams {
    agentId: string;
    executionId: string;
}
export interface Event {
    type: string;
    timestamp: string;
    sequence: number;
    agentId: string;
    executionId: string;
    ids?: Record<string, string>;
    details?: Record<string, unknown>;
}
export interface ErrorData {
    code: string;
    details?: Record<string, unknown>;
}
