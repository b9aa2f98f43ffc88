// The definition layer: workflow({ input, output, run }) and its types.
// Defining a workflow does nothing but record it; Stratos loads the module to
// read the schemas (never calling run), and calls run only when it executes
// the workflow.
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

// The brand's value is the URL of the SDK module that made the definition:
// the loader compares it with its own to detect a workflow that resolved a
// different copy of the SDK (which would not share the runtime's state).
const brand = Symbol.for("stratos.sdk.workflow");
const sdkModuleURL = import.meta.url;

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
export function workflow<I extends Schema, O extends Schema>(spec: WorkflowSpec<I, O>): WorkflowDefinition<I, O> {
  if (typeof spec !== "object" || spec === null) {
    throw new TypeError(`workflow(): expected an object { input, output, run }, got ${describeValue(spec)}`);
  }
  for (const key of ["input", "output"] as const) {
    if (!isZodSchema(spec[key])) {
      throw new TypeError(`workflow(): ${key} must be a Zod 4 schema, got ${describeValue(spec[key])}`);
    }
  }
  if (typeof spec.run !== "function") {
    throw new TypeError(`workflow(): run must be a function, got ${describeValue(spec.run)}`);
  }
  const definition: WorkflowDefinition<I, O> = { input: spec.input, output: spec.output, run: spec.run.bind(spec) };
  Object.defineProperty(definition, brand, { value: sdkModuleURL });
  return Object.freeze(definition);
}

/** Reports whether value was made by {@link workflow} (by any copy of the SDK). */
export function isWorkflowDefinition(value: unknown): value is WorkflowDefinition {
  return typeof value === "object" && value !== null && typeof (value as Record<symbol, unknown>)[brand] === "string";
}

/** The URL of the SDK module that defined value, and of this one. @internal */
export function definitionOrigin(value: WorkflowDefinition): { definedBy: string; expected: string } {
  return { definedBy: String((value as unknown as Record<symbol, unknown>)[brand]), expected: sdkModuleURL };
}

function isZodSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && "_zod" in value;
}

/** A short description of a value for error messages. @internal */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object that is not a workflow(...) result";
  if (typeof value === "function") return "a function";
  if (typeof value === "undefined") return "undefined (nothing)";
  return `${typeof value} ${JSON.stringify(value)}`;
}
