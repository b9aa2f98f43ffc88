// The SDK's typed errors: stable codes, details, cause chains, and sorted
// validation issues.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  ChildWorkflowError,
  InputValidationError,
  NonErrorThrownError,
  OutputValidationError,
  StratosError,
  WorkflowCycleError,
  errorChain,
  errorCode,
  isStratosError,
  toError,
} from "../dist/errors.js";
import { AgentConfigurationError, AgentExecutionError, StructuredOutputError, agentErrorFor, isAgentErrorCode } from "../dist/agent-errors.js";
import { isSdkError } from "../dist/sdk-errors.js";
import { McpError, McpToolError, McpConfigurationError, McpConnectionError, McpTimeoutError, McpProtocolError } from "../dist/index.js";
import { toIssues } from "../dist/validate.js";

describe("error classes", () => {
  it("carry their code, name and details", () => {
    const err = new InputValidationError("w", [{ path: "a", message: "bad" }]);
    assert.equal(err.code, "input_validation");
    assert.equal(err.name, "InputValidationError");
    assert.deepEqual(err.details, { workflow: "w", issues: [{ path: "a", message: "bad" }] });
    assert.equal(err.message, 'invalid input for workflow "w": field "a": bad');
    assert.ok(err instanceof StratosError && isStratosError(err) && isSdkError(err));
  });

  it("name at most five issues in the message", () => {
    const issues = ["a", "b", "c", "d", "e", "f", "g"].map((p) => ({ path: p, message: "m" }));
    const err = new OutputValidationError("w", issues);
    assert.match(err.message, /field "e": m; and 2 more$/);
    assert.equal(err.issues.length, 7);
  });

  it("keep the cause chain, outermost first", () => {
    const root = new Error("root cause");
    const cycle = new WorkflowCycleError(["a", "b", "a"]);
    const child = new ChildWorkflowError("b", "x-1", new StratosError("mine", "inner", { cause: root }));
    assert.deepEqual(
      errorChain(child).map((l) => [l.name, l.code]),
      [
        ["ChildWorkflowError", "child_failed"],
        ["StratosError", "mine"],
        ["Error", undefined],
      ],
    );
    assert.equal(cycle.code, "workflow_cycle");
    assert.deepEqual(cycle.cycle, ["a", "b", "a"]);
  });

  it("tell the SDK's own errors from a StratosError workflow code raised", () => {
    const own = new StratosError("child_failed", "workflow code reusing a code");
    assert.ok(isStratosError(own));
    assert.ok(!isSdkError(own));
  });

  it("count the direct MCP client errors as the SDK's own", () => {
    const raised = [
      new McpToolError("tracker", "search", [{ type: "text", text: "no such issue" }]),
      new McpConfigurationError("tracker", "not declared"),
      new McpConnectionError("tracker", "closed"),
      new McpTimeoutError("tracker", "five minutes"),
      new McpProtocolError("tracker", "unknown tool"),
    ];
    for (const err of raised) {
      assert.ok(err instanceof McpError && isSdkError(err), err.name);
    }
    assert.deepEqual(
      raised.map((e) => e.code),
      ["mcp_tool_error", "mcp_configuration", "mcp_connection", "mcp_timeout", "mcp_protocol"],
    );
  });

  it("wrap what is not an Error", () => {
    const err = toError("just a string");
    assert.ok(err instanceof NonErrorThrownError);
    assert.equal(err.code, "non_error_thrown");
    assert.equal(errorCode(new Error("plain")), "workflow_failed");
  });
});

describe("agent errors", () => {
  it("map each host code to its class, keeping the code", () => {
    const cases = [
      ["configuration", AgentConfigurationError],
      ["prompt_file", AgentConfigurationError],
      ["structured_output", StructuredOutputError],
      ["internal", AgentExecutionError],
      ["execution", AgentExecutionError],
    ];
    for (const [code, cls] of cases) {
      const err = agentErrorFor(code, "judge", "m", { x: 1 });
      assert.ok(err instanceof cls, code);
      assert.equal(err.code, code);
      assert.deepEqual(err.details, { agent: "judge", x: 1 });
    }
  });

  it("know which codes are agent codes", () => {
    assert.ok(isAgentErrorCode("admission"));
    assert.ok(!isAgentErrorCode("child_failed"));
    assert.ok(!isAgentErrorCode("toString"));
  });
});

describe("validation issues", () => {
  it("are flattened and sorted by path, indexes as numbers, then message", () => {
    const issues = toIssues([
      { path: ["items", 10], message: "z" },
      { path: ["title"], message: "b" },
      { path: ["items", 2], message: "y" },
      { path: [], code: "unrecognized_keys", keys: ["zzz", "extra"], message: "Unrecognized keys" },
      { path: ["title"], message: "a" },
      { path: [{ key: "owner" }, "name"], code: "invalid_type", message: "expected string" },
    ]);
    assert.deepEqual(
      issues.map((i) => `${i.path}: ${i.message}`),
      ["extra: unknown field (not in the schema)", "items.2: y", "items.10: z", "owner.name: expected string", "title: a", "title: b", "zzz: unknown field (not in the schema)"],
    );
  });
});
