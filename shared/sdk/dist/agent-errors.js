// The typed errors of agents. Every failed execute() rejects with one of
// these (or CancelledError / ContextClosedError from errors.ts); `code` is the
// agent host's stable error code.
import { StratosError } from "./errors.js";
/** The base class of agent errors; `agent` names the agent object (its configId or "agent #n"). */
export class AgentError extends StratosError {
    agent;
    constructor(code, agent, message, options) {
        super(code, message, { cause: options?.cause, details: { agent, ...options?.details } });
        this.name = "AgentError";
        this.agent = agent;
    }
}
function agentErrorClass(name, code) {
    const cls = class extends AgentError {
        constructor(agent, message, options) {
            super(options?.code ?? code, agent, message, options);
            this.name = name;
        }
    };
    Object.defineProperty(cls, "name", { value: name });
    return cls;
}
/**
 * Invalid or unknown configuration: configId, MCP server, tool name, effort, harness, prompt file (codes configuration,
 * prompt_file), or, in a `stratos test` case, an agent the case does not put on the test harness (code unscripted_agent).
 */
export class AgentConfigurationError extends agentErrorClass("AgentConfigurationError", "configuration") {
}
/** A template uses a variable nobody supplied (code template_variable_missing); details.variable names it. */
export class TemplateVariableMissingError extends agentErrorClass("TemplateVariableMissingError", "template_variable_missing") {
}
/** The harness could not start the session (code initialization); the next execute() tries again. */
export class AgentInitializationError extends agentErrorClass("AgentInitializationError", "initialization") {
}
/** The harness has no usable credentials (code authentication). */
export class AgentAuthenticationError extends agentErrorClass("AgentAuthenticationError", "authentication") {
}
/** The model cannot be used through the harness (code model_unavailable). */
export class ModelUnavailableError extends agentErrorClass("ModelUnavailableError", "model_unavailable") {
}
/** The harness is not installed or not available in this version (code harness_unavailable). */
export class HarnessUnavailableError extends agentErrorClass("HarnessUnavailableError", "harness_unavailable") {
}
/** The harness failed while executing the prompt (code execution); the conversation stays usable. */
export class AgentExecutionError extends agentErrorClass("AgentExecutionError", "execution") {
}
/** execute() while the same agent object is executing (code concurrent_use); the running call is untouched. */
export class ConcurrentUseError extends agentErrorClass("ConcurrentUseError", "concurrent_use") {
}
/** agents.maxOutstanding calls are already running or queued in this execution (code admission). */
export class AdmissionError extends agentErrorClass("AdmissionError", "admission") {
}
/** The output does not match the agent's outputSchema (code structured_output). */
export class StructuredOutputError extends agentErrorClass("StructuredOutputError", "structured_output") {
}
/** An author hook threw or rejected (code hook_failed); `cause` is what it threw. */
export class AgentHookError extends agentErrorClass("AgentHookError", "hook_failed") {
}
/** How to make the error of each host error code. */
const byCode = {
    configuration: (a, m, details) => new AgentConfigurationError(a, m, { details }),
    prompt_file: (a, m, details) => new AgentConfigurationError(a, m, { details, code: "prompt_file" }),
    unscripted_agent: (a, m, details) => new AgentConfigurationError(a, m, { details, code: "unscripted_agent" }),
    template_variable_missing: (a, m, details) => new TemplateVariableMissingError(a, m, { details }),
    initialization: (a, m, details) => new AgentInitializationError(a, m, { details }),
    authentication: (a, m, details) => new AgentAuthenticationError(a, m, { details }),
    model_unavailable: (a, m, details) => new ModelUnavailableError(a, m, { details }),
    harness_unavailable: (a, m, details) => new HarnessUnavailableError(a, m, { details }),
    execution: (a, m, details) => new AgentExecutionError(a, m, { details }),
    internal: (a, m, details) => new AgentExecutionError(a, m, { details, code: "internal" }),
    protocol: (a, m, details) => new AgentExecutionError(a, m, { details, code: "protocol" }),
    concurrent_use: (a, m, details) => new ConcurrentUseError(a, m, { details }),
    admission: (a, m, details) => new AdmissionError(a, m, { details }),
    structured_output: (a, m, details) => new StructuredOutputError(a, m, { details }),
    hook_failed: (a, m, details) => new AgentHookError(a, m, { details }),
};
/** Whether code is an agent error code. @internal */
export function isAgentErrorCode(code) {
    return Object.hasOwn(byCode, code);
}
/** The typed error of an agent error the host reported. @internal */
export function agentErrorFor(code, agent, message, details) {
    return byCode[code](agent, message, details);
}
