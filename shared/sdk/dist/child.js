// The contract of generated child-workflow wrappers (.generated/<name>.ts):
// each wrapper default-exports a factory built on createChildWorkflow. Its
// names are a contract with the wrapper generator; keep them stable.
/**
 * Binds a child-workflow reference and override defaults. It starts nothing:
 * every execute(input) is a separate child invocation.
 */
export function createChildWorkflow(ref, options) {
    for (const key of ["name", "dir", "entry"]) {
        if (typeof ref?.[key] !== "string" || ref[key] === "") {
            throw new TypeError(`createChildWorkflow(): reference.${key} must be a non-empty string`);
        }
    }
    const bound = Object.freeze({ ref: Object.freeze({ ...ref }), overrides: options?.overrides });
    return Object.freeze({
        execute(_input) {
            return Promise.reject(new Error(`child workflow execution is not available in this version: cannot execute workflow "${bound.ref.name}" (${bound.ref.entry}); this SDK only loads definitions`));
        },
    });
}
