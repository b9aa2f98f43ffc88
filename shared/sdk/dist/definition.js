// Importing a compiled workflow module and checking its default export. The
// loader (schemas for build, describe and schema) and the runtime (stratos
// run, child workflows) share it, so a module is valid or invalid alike for
// both.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { contextStorage } from "./context.js";
import { StratosError } from "./errors.js";
import { definitionOrigin, describeValue, isWorkflowDefinition } from "./workflow.js";
/**
 * Imports the compiled entry (a path) and returns its workflow definition.
 * Throws a StratosError with code definition_load_failed (the import threw;
 * cause is node's error), definition_invalid (the default export is not a
 * workflow(...) result) or sdk_shadowed (it was defined with another copy of
 * the SDK). The import runs outside any execution context: a module's
 * top-level code runs once per process, whichever invocation imports it
 * first, so it must not see (or be attributed to) that invocation. @internal
 */
export async function importDefinition(entry) {
    let module;
    try {
        module = await contextStorage().exit(() => import(pathToFileURL(resolve(entry)).href));
    }
    catch (err) {
        throw new StratosError("definition_load_failed", `loading ${entry} failed: ${errorText(err)}`, { cause: err, details: { entry } });
    }
    const definition = module.default;
    if (!isWorkflowDefinition(definition)) {
        throw new StratosError("definition_invalid", `${entry} must default-export workflow({ input, output, run }) from @stratoscli/stratos; its default export is ${describeValue(definition)}`, { details: { entry } });
    }
    const origin = definitionOrigin(definition);
    if (origin.definedBy !== origin.expected) {
        throw new StratosError("sdk_shadowed", `${entry} was defined with another copy of @stratoscli/stratos (${origin.definedBy}) than the discovery root's (${origin.expected}); remove the closer copy so that the workflow uses the root's SDK`, { details: { entry } });
    }
    return definition;
}
/** An error as one line: name, node's error code if any, message. @internal */
export function errorText(err) {
    if (err instanceof Error) {
        const code = err.code;
        return typeof code === "string" ? `${err.name} [${code}]: ${err.message}` : `${err.name}: ${err.message}`;
    }
    return String(err);
}
