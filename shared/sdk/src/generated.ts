// @stratoscli/stratos/generated: what the wrappers Stratos generates for
// child workflows (.generated/<name>.ts) import. Not for workflow code: a
// child runs only when the calling workflow imports its generated wrapper.
export { createChildWorkflow } from "./child.js";
export type { ChildWorkflow, ChildWorkflowReference, ChildWorkflowOptions, WorkflowOverrides } from "./child.js";
export { connectMcpServer } from "./mcp.js";
export type { McpToolResult, McpClient, McpResourcesAndPrompts, McpConnectOptions } from "./mcp.js";
