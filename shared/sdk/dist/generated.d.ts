export { createChildWorkflow } from "./child.js";
export type { ChildWorkflow, ChildWorkflowReference, ChildWorkflowOptions, WorkflowOverrides } from "./child.js";
