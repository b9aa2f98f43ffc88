// ask: the one-shot agent call of fan-out code. It creates an agent, sends
// one prompt and closes the agent (its harness session, and its worktree if
// configured) before it returns or throws, so that a fan-out of a thousand
// asks does not keep a thousand sessions open until the execution ends.
import type * as z from "zod";
import { closeAgent, createAgent, type Agent, type AgentOptions, type PromptSource } from "./agent.js";
import { CancelledError } from "./errors.js";
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
export function ask<S extends Schema>(prompt: PromptSource, options: AskOptions<S> & { outputSchema: S }): Promise<z.output<S>>;
export function ask(prompt: PromptSource, options?: AskOptions<undefined>): Promise<string>;
export async function ask(prompt: PromptSource, options: AskOptions = {}): Promise<unknown> {
  const { signal, ...agentOptions } = options ?? {};
  const agent = createAgent(agentOptions as AgentOptions<undefined>) as Agent<unknown>;
  const onAbort = () => agent.cancel();
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    if (signal?.aborted) {
      throw new CancelledError("ask(): cancelled before it started", { cause: signal.reason });
    }
    return await agent.execute(prompt);
  } finally {
    signal?.removeEventListener("abort", onAbort);
    await closeAgent(agent);
  }
}
