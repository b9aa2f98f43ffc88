// The execution context store. Every primitive (agents, decisions, child
// workflows, MCP wrappers) reads the current invocation's context from this
// one AsyncLocalStorage. It lives on globalThis under a registered symbol so
// that even if two copies of the SDK end up in one process they share it:
// two stores would silently lose the context.
import { AsyncLocalStorage } from "node:async_hooks";
const storeKey = Symbol.for("stratos.sdk.als");
/** The process-wide context store. @internal */
export function contextStorage() {
    const slot = globalThis;
    return (slot[storeKey] ??= new AsyncLocalStorage());
}
/** The current invocation's context; throws outside a running workflow. @internal */
export function getContext(primitive) {
    const ctx = contextStorage().getStore();
    if (ctx === undefined) {
        throw new Error(`${primitive} must be called inside a running workflow (from run or code it calls), not at module level`);
    }
    return ctx;
}
