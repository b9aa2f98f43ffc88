// @stratoscli/stratos: the SDK that workflow code imports. Stratos installs
// exactly one copy per discovery root (<root>/node_modules/@stratoscli/stratos),
// at the CLI's own version; workflows must not install another.
export { workflow, isWorkflowDefinition } from "./workflow.js";
export type {
  Schema,
  WorkflowSpec,
  WorkflowDefinition,
  WorkflowInput,
  WorkflowParsedInput,
  WorkflowOutput,
} from "./workflow.js";
// createChildWorkflow is for generated wrappers only ("@stratoscli/stratos/generated").
export type { ChildWorkflow, ChildWorkflowOptions } from "./child.js";
export type { AgentOverride, WorkflowOverrides, WorkflowConfig } from "./config.js";
export { executionInfo, cancellationSignal } from "./context.js";
export { log, phase } from "./progress.js";
export type { ProgressType } from "./progress.js";
export { EventVersion } from "./events.js";
export type { StratosEvent, EventOf, EventType, EventDetails, EventIDs, EventError } from "./events.js";
export { budget } from "./budget.js";
export type { BudgetSpent, BudgetLimits } from "./budget.js";
export type { ExecutionInfo, ExecutionState, InvocationStatus, OwnedResource, InvocationNode } from "./context.js";
export {
  StratosError,
  InputValidationError,
  OutputValidationError,
  WorkflowCycleError,
  ChildWorkflowError,
  CancelledError,
  ContextClosedError,
  NoExecutionContextError,
  WorkflowNotFoundError,
  WorkflowNotBuiltError,
  WorkflowNotReferencedError,
  NonErrorThrownError,
  isStratosError,
} from "./errors.js";
export type { ValidationIssue, ErrorLink, WorkflowErrorCode } from "./errors.js";
export type { Side, Unrepresentable, DefinitionDescription } from "./describe.js";
export { createAgent } from "./agent.js";
export type { HarnessName } from "./harness-names.js";
export { ask } from "./ask.js";
export type { AskOptions } from "./ask.js";
export { parallel, pipeline, nonNull, isExecutionFailure } from "./parallel.js";
export type { ParallelOptions, OnError, Thunk, Stage, Settled, ParallelResults } from "./parallel.js";
export type {
  Agent,
  AgentOptions,
  AgentHooks,
  PromptSource,
  SystemPromptSource,
  ToolCall,
  ToolCallResult,
  BeforeToolCallResult,
  AfterToolCallResult,
  TestScript,
  TestTurn,
  TestCase,
  TestWhen,
  TestExpect,
  TestToolCall,
  TestAttempt,
} from "./agent.js";
export {
  AgentError,
  AgentConfigurationError,
  TemplateVariableMissingError,
  AgentInitializationError,
  AgentAuthenticationError,
  ModelUnavailableError,
  HarnessUnavailableError,
  AgentExecutionError,
  ConcurrentUseError,
  AdmissionError,
  StructuredOutputError,
  AgentHookError,
} from "./agent-errors.js";
export type { AgentErrorOptions, AgentErrorCode, AnyAgentError } from "./agent-errors.js";

export { isSdkError } from "./sdk-errors.js";
export type { StratosErrorCode, SdkError } from "./sdk-errors.js";

// Direct MCP clients: the generated wrappers (generated/mcp/<server>.ts) create them.
export {
  McpError,
  McpToolError,
  McpConfigurationError,
  McpConnectionError,
  McpTimeoutError,
  McpProtocolError,
  McpResourceTooLargeError,
  resourceLinks,
} from "./mcp.js";
export type {
  McpErrorCode,
  McpContent,
  McpToolResult,
  McpResourceLink,
  McpResource,
  McpResourceTemplate,
  McpResourceContents,
  McpResourceRead,
  McpReadResourceOptions,
  McpPrompt,
  McpPromptArgument,
  McpPromptMessage,
  McpPromptResult,
  McpResourcesAndPrompts,
  McpConnectOptions,
  McpLogLevel,
  McpElicitationRequest,
  McpElicitationAnswer,
  McpElicitationValue,
} from "./mcp.js";

// Decisions: typed judgements answered by a model directly.
export { choice, score, verdict, decision } from "./decision.js";
export type { Question, ChoiceQuestion, ScoreQuestion, VerdictQuestion, ChoiceOption, Verdict, AnswerOf, Decision, DecisionOptions } from "./decision.js";
export {
  DecisionError,
  DecisionConfigurationError,
  DecisionEndpointError,
  DecisionModelUnavailableError,
  DecisionInvalidAnswerError,
  DecisionTimeoutError,
  DecisionAdmissionError,
} from "./decision-errors.js";
export type { DecisionErrorCode, AnyDecisionError } from "./decision-errors.js";
