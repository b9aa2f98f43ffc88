export { workflow, isWorkflowDefinition } from "./workflow.js";
export type { Schema, WorkflowSpec, WorkflowDefinition, WorkflowInput, WorkflowParsedInput, WorkflowOutput, } from "./workflow.js";
export { createChildWorkflow } from "./child.js";
export type { AgentOverride, WorkflowOverrides, ChildWorkflow, ChildWorkflowReference, ChildWorkflowOptions, } from "./child.js";
export type { Side, Unrepresentable, DefinitionDescription } from "./describe.js";
