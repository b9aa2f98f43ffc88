export { createChildWorkflow } from "./child.js";
export type { ChildWorkflow, ChildWorkflowReference, ChildWorkflowOptions, WorkflowOverrides } from "./child.js";
export { connectMcpServer } from "./mcp.js";
export type { McpToolResult, McpClient, McpResourcesAndPrompts, McpConnectOptions } from "./mcp.js";
