import type { WorkflowDefinition } from "./workflow.js";
/** Which contract a finding belongs to. */
export type Side = "input" | "output";
/** A part of a schema that JSON Schema cannot represent faithfully. */
export interface Unrepresentable {
    side: Side;
    /** JSON Pointer into that side's JSON Schema ("" is the schema itself). */
    path: string;
    /** The Zod construct: "date", "transform", "refine", "bigint", "custom", ... */
    kind: string;
}
/** The JSON description of a definition that the loader prints. */
export interface DefinitionDescription {
    input: Record<string, unknown>;
    output: Record<string, unknown>;
    unrepresentable: Unrepresentable[];
}
/** Describes definition: input as callers send it, output as run's result parses. */
export declare function describeDefinition(definition: WorkflowDefinition): DefinitionDescription;
