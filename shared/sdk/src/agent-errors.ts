// The typed errors of agents. Every failed execute() rejects with one of
// these (or CancelledError / ContextClosedError from errors.ts); `code` is the
// agent host's stable error code.
import { StratosError } from "./errors.js";

/** The base class of agent errors; `agent` names the agent object (its configId or "agent #n"). */
export class AgentError extends StratosError {
  readonly agent: string;
  constructor(code: string, agent: string, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(code, message, { cause: options?.cause, details: { agent, ...options?.details } });
    this.name = "AgentError";
    this.agent = agent;
  }
}

/** Options of agent error constructors; code overrides the class's own (prompt_file is a configuration error). */
export interface AgentErrorOptions {
  cause?: unknown;
  details?: Record<string, unknown>;
  code?: string;
}

function agentErrorClass(name: string, code: string) {
  const cls = class extends AgentError {
    constructor(agent: string, message: string, options?: AgentErrorOptions) {
      super(options?.code ?? code, agent, message, options);
      this.name = name;
    }
  };
  Object.defineProperty(cls, "name", { value: name });
  return cls;
}

/** Invalid or unknown configuration: configId, MCP server, tool name, effort, harness, prompt file (codes configuration, prompt_file). */
export class AgentConfigurationError extends agentErrorClass("AgentConfigurationError", "configuration") {}
/** A template uses a variable nobody supplied (code template_variable_missing); details.variable names it. */
export class TemplateVariableMissingError extends agentErrorClass("TemplateVariableMissingError", "template_variable_missing") {}
/** The harness could not start the session (code initialization); the next execute() tries again. */
export class AgentInitializationError extends agentErrorClass("AgentInitializationError", "initialization") {}
/** The harness has no usable credentials (code authentication). */
export class AgentAuthenticationError extends agentErrorClass("AgentAuthenticationError", "authentication") {}
/** The model cannot be used through the harness (code model_unavailable). */
export class ModelUnavailableError extends agentErrorClass("ModelUnavailableError", "model_unavailable") {}
/** The harness is not installed or not available in this version (code harness_unavailable). */
export class HarnessUnavailableError extends agentErrorClass("HarnessUnavailableError", "harness_unavailable") {}
/** The harness failed while executing the prompt (code execution); the conversation stays usable. */
export class AgentExecutionError extends agentErrorClass("AgentExecutionError", "execution") {}
/** execute() while the same agent object is executing (code concurrent_use); the running call is untouched. */
export class ConcurrentUseError extends agentErrorClass("ConcurrentUseError", "concurrent_use") {}
/** agents.maxOutstanding calls are already running or queued in this execution (code admission). */
export class AdmissionError extends agentErrorClass("AdmissionError", "admission") {}
/** The output does not match the agent's outputSchema (code structured_output). */
export class StructuredOutputError extends agentErrorClass("StructuredOutputError", "structured_output") {}
/** An author hook threw or rejected (code hook_failed); `cause` is what it threw. */
export class AgentHookError extends agentErrorClass("AgentHookError", "hook_failed") {}

type AgentErrorClass = new (agent: string, message: string, options?: AgentErrorOptions) => AgentError;

const byCode: Record<string, AgentErrorClass> = {
  configuration: AgentConfigurationError,
  prompt_file: AgentConfigurationError,
  template_variable_missing: TemplateVariableMissingError,
  initialization: AgentInitializationError,
  authentication: AgentAuthenticationError,
  model_unavailable: ModelUnavailableError,
  harness_unavailable: HarnessUnavailableError,
  execution: AgentExecutionError,
  concurrent_use: ConcurrentUseError,
  admission: AdmissionError,
  structured_output: StructuredOutputError,
  hook_failed: AgentHookError,
};

/** The error class for a host error code (AgentExecutionError for unknown ones). @internal */
export function agentErrorFor(code: string): AgentErrorClass {
  return byCode[code] ?? AgentExecutionError;
}
