// The union of every error the SDK raises, for narrowing on `code`.
import * as errors from "./errors.js";
import { AgentError } from "./agent-errors.js";
import { McpError, } from "./mcp.js";
import { DecisionError } from "./decision-errors.js";
/** Whether value is one of the SDK's own errors (not a StratosError that workflow code raised). */
export function isSdkError(value) {
    return (value instanceof AgentError ||
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
        value instanceof errors.NonErrorThrownError);
}
