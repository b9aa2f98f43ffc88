import type * as z from "zod";
import { type AgentOptions, type PromptSource } from "./agent.js";
import type { Schema } from "./workflow.js";
/** The options of ask: createAgent's, plus a signal that cancels the call. */
export type AskOptions<S extends Schema | undefined = Schema | undefined> = AgentOptions<S> & {
    /** Aborting it cancels the call (it then rejects with CancelledError): pass parallel's or pipeline's signal. */
    signal?: AbortSignal;
};
/**
 * Executes prompt once on a fresh agent created with options (as
 * createAgent({...}).execute(prompt)) and closes the agent when the call
 * returns or throws. Resolves to the text, or to the parsed value of
 * options.outputSchema.
 */
export declare function ask<S extends Schema>(prompt: PromptSource, options: AskOptions<S> & {
    outputSchema: S;
}): Promise<z.output<S>>;
export declare function ask(prompt: PromptSource, options?: AskOptions<undefined>): Promise<string>;
