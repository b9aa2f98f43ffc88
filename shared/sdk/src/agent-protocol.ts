// The agent host protocol as the SDK sees it: JSON-RPC 2.0 messages between
// this process and `stratos-agent serve`, one JSON object per line. The Go
// package shared/agentproto documents every method; a Go test there parses
// this file and fails when a method, an error code or a field differs from
// the Go types. Keep one field per line, and every type a named interface.
// @internal

export const ProtocolVersion = 1;

/** Every method name (SDK → host and host → SDK). */
export const Methods = {
  initialize: "initialize",
  agentExecute: "agent.execute",
  agentCancel: "agent.cancel",
  agentClose: "agent.close",
  executionClose: "execution.close",
  shutdown: "shutdown",
  hookBeforeToolCall: "hook.beforeToolCall",
  hookAfterToolCall: "hook.afterToolCall",
  hookOnStart: "hook.onStart",
  event: "event",
} as const;

/** Every agent error code (error.data.code of an error response). */
export const ErrorCodes = [
  "admission",
  "authentication",
  "cancelled",
  "concurrent_use",
  "configuration",
  "context_closed",
  "execution",
  "harness_unavailable",
  "hook_failed",
  "initialization",
  "internal",
  "model_unavailable",
  "prompt_file",
  "protocol",
  "structured_output",
  "template_variable_missing",
] as const;

export type ErrorCode = (typeof ErrorCodes)[number];

/** The JSON-RPC error code of agent errors. */
export const RPCAgentError = -32000;

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

export type PromptSource = string | { file: string } | { template: string } | { configId: string };

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
