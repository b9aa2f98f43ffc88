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
export function workflow(spec) {
    if (typeof spec !== "object" || spec === null) {
        throw new TypeError(`workflow(): expected an object { input, output, run }, got ${describeValue(spec)}`);
    }
    for (const key of ["input", "output"]) {
        if (!isZodSchema(spec[key])) {
            throw new TypeError(`workflow(): ${key} must be a Zod 4 schema, got ${describeValue(spec[key])}`);
        }
    }
    if (typeof spec.run !== "function") {
        throw new TypeError(`workflow(): run must be a function, got ${describeValue(spec.run)}`);
    }
    const definition = { input: spec.input, output: spec.output, run: spec.run.bind(spec) };
    Object.defineProperty(definition, brand, { value: sdkModuleURL });
    return Object.freeze(definition);
}
/** Reports whether value was made by {@link workflow} (by any copy of the SDK). */
export function isWorkflowDefinition(value) {
    return typeof value === "object" && value !== null && typeof value[brand] === "string";
}
/** The URL of the SDK module that defined value, and of this one. @internal */
export function definitionOrigin(value) {
    return { definedBy: String(value[brand]), expected: sdkModuleURL };
}
function isZodSchema(value) {
    return typeof value === "object" && value !== null && "_zod" in value;
}
/** A short description of a value for error messages. @internal */
export function describeValue(value) {
    if (value === null)
        return "null";
    if (Array.isArray(value))
        return "an array";
    if (typeof value === "object")
        return "an object that is not a workflow(...) result";
    if (typeof value === "function")
        return "a function";
    if (typeof value === "undefined")
        return "undefined (nothing)";
    return `${typeof value} ${JSON.stringify(value)}`;
}
