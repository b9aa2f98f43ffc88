// @stratoscli/stratos: the SDK that workflow code imports. Stratos installs
// exactly one copy per discovery root (<root>/node_modules/@stratoscli/stratos),
// at the CLI's own version; workflows must not install another.
export { workflow, isWorkflowDefinition } from "./workflow.js";
export { executionInfo, cancellationSignal } from "./context.js";
export { log, phase } from "./progress.js";
export { EventVersion } from "./events.js";
export { budget } from "./budget.js";
export { StratosError, InputValidationError, OutputValidationError, WorkflowCycleError, ChildWorkflowError, CancelledError, ContextClosedError, NoExecutionContextError, WorkflowNotFoundError, WorkflowNotBuiltError, WorkflowNotReferencedError, NonErrorThrownError, isStratosError, } from "./errors.js";
export { createAgent } from "./agent.js";
export { ask } from "./ask.js";
export { parallel, pipeline, nonNull, isExecutionFailure } from "./parallel.js";
export { AgentError, AgentConfigurationError, TemplateVariableMissingError, AgentInitializationError, AgentAuthenticationError, ModelUnavailableError, HarnessUnavailableError, AgentExecutionError, ConcurrentUseError, AdmissionError, StructuredOutputError, AgentHookError, } from "./agent-errors.js";
export { isSdkError } from "./sdk-errors.js";
// Direct MCP clients: the generated wrappers (generated/mcp/<server>.ts) create them.
export { McpError, McpToolError, McpConfigurationError, McpConnectionError, McpTimeoutError, McpProtocolError, McpResourceTooLargeError, resourceLinks, } from "./mcp.js";
// Decisions: typed judgements answered by a model directly.
export { choice, score, verdict, decision } from "./decision.js";
export { DecisionError, DecisionConfigurationError, DecisionEndpointError, DecisionModelUnavailableError, DecisionInvalidAnswerError, DecisionTimeoutError, DecisionAdmissionError, } from "./decision-errors.js";
