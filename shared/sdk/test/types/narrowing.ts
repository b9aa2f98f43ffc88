// Compiled (not run) by TestErrorCodesNarrow with the workflow compiler
// flags: checking `code` on the SDK's errors narrows to the error's class,
// and codes the SDK never raises are type errors.
import {
  isSdkError,
  type ChildWorkflowError,
  type McpTimeoutError,
  type McpToolError,
  type SdkError,
  type StratosErrorCode,
  type StructuredOutputError,
} from "../../dist/index.js";

export function handle(err: unknown): string {
  if (!isSdkError(err)) {
    return "not the SDK's";
  }
  switch (err.code) {
    case "child_failed": {
      const child: ChildWorkflowError = err;
      return child.workflow;
    }
    case "structured_output": {
      const output: StructuredOutputError = err;
      return output.agent;
    }
    case "mcp_tool_error": {
      const tool: McpToolError = err;
      return tool.tool;
    }
    case "mcp_timeout": {
      const timeout: McpTimeoutError = err;
      return timeout.server;
    }
    case "input_validation":
      return err.issues.map((i) => i.path).join(",");
    default:
      return err.code;
  }
}

export function code(err: SdkError): StratosErrorCode {
  // @ts-expect-error: "child_fialed" is not a code the SDK raises.
  if (err.code === "child_fialed") {
    return "cancelled";
  }
  return err.code;
}
