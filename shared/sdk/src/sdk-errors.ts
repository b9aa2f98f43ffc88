// The union of every error the SDK raises, for narrowing on `code`.
import * as errors from "./errors.js";
import { AgentError, type AgentErrorCode, type AnyAgentError } from "./agent-errors.js";
import {
  McpError,
  type McpErrorCode,
  type McpToolError,
  type McpConfigurationError,
  type McpConnectionError,
  type McpTimeoutError,
  type McpProtocolError,
  type McpResourceTooLargeError,
} from "./mcp.js";
import { DecisionError, type AnyDecisionError, type DecisionErrorCode } from "./decision-errors.js";

/** Every code of an error the SDK raises. */
export type StratosErrorCode = errors.WorkflowErrorCode | AgentErrorCode | McpErrorCode | DecisionErrorCode;

/**
 * Every error class the SDK raises. Narrow on `code`:
 *
 *     if (isSdkError(err) && err.code === "child_failed") err.workflow // ChildWorkflowError
 */
export type SdkError =
  | errors.InputValidationError
  | errors.OutputValidationError
  | errors.WorkflowCycleError
  | errors.ChildWorkflowError
  | errors.CancelledError
  | errors.ContextClosedError
  | errors.NoExecutionContextError
  | errors.WorkflowNotFoundError
  | errors.WorkflowNotReferencedError
  | errors.WorkflowNotBuiltError
  | errors.NonErrorThrownError
  | AnyAgentError
  | McpToolError
  | McpConfigurationError
  | McpConnectionError
  | McpTimeoutError
  | McpProtocolError
  | McpResourceTooLargeError
  | AnyDecisionError;

/** Whether value is one of the SDK's own errors (not a StratosError that workflow code raised). */
export function isSdkError(value: unknown): value is SdkError {
  return (
    value instanceof AgentError ||
    value instanceof McpError ||
    value instanceof DecisionError ||
    value instanceof errors.InputValidationError ||
    value instanceof errors.OutputValidationError ||
    value instanceof errors.WorkflowCycleError ||
    value instanceof errors.ChildWorkflowError ||
    value instanceof errors.CancelledError ||
    value instanceof errors.ContextClosedError ||
    value instanceof errors.NoExecutionContextError ||
    value instanceof errors.WorkflowNotFoundError ||
    value instanceof errors.WorkflowNotReferencedError ||
    value instanceof errors.WorkflowNotBuiltError ||
    value instanceof errors.NonErrorThrownError
  );
}
