import type * as z from "zod";
/** Any Zod 4 schema (zod classic or zod/mini). */
export type Schema = z.core.$ZodType;
/** What a workflow module passes to {@link workflow}. */
export interface WorkflowSpec<I extends Schema, O extends Schema> {
    /** The input contract: an object schema; every field needs a `.describe(...)`. Use strict objects so unknown fields are rejected. */
    input: I;
    /** The output contract: an object schema (an empty object when the workflow returns no data). */
    output: O;
    /** The workflow's body. It receives the parsed input (defaults applied) and returns the output, which Stratos validates. */
    run(input: z.output<I>): Promise<z.input<O>> | z.input<O>;
}
/** A workflow definition: the default export of a workflow's entrypoint. */
export interface WorkflowDefinition<I extends Schema = Schema, O extends Schema = Schema> {
    readonly input: I;
    readonly output: O;
    readonly run: (input: z.output<I>) => Promise<z.input<O>> | z.input<O>;
}
/** The input a caller passes to workflow W (fields with defaults are optional). */
export type WorkflowInput<W extends WorkflowDefinition> = z.input<W["input"]>;
/** The input W's run receives, after parsing (defaults applied). */
export type WorkflowParsedInput<W extends WorkflowDefinition> = z.output<W["input"]>;
/** The output a caller of workflow W receives, after validation. */
export type WorkflowOutput<W extends WorkflowDefinition> = z.output<W["output"]>;
/**
 * Defines a workflow. The entrypoint must default-export the result:
 *
 * ```ts
 * export default workflow({
 *   input: z.strictObject({ name: z.string().describe("Who to greet") }),
 *   output: z.strictObject({ greeting: z.string().describe("") }),
 *   async run({ name }) { return { greeting: `Hello, ${name}` }; },
 * });
 * ```
 */
export declare function workflow<I extends Schema, O extends Schema>(spec: WorkflowSpec<I, O>): WorkflowDefinition<I, O>;
/** Reports whether value was made by {@link workflow} (by any copy of the SDK). */
export declare function isWorkflowDefinition(value: unknown): value is WorkflowDefinition;
