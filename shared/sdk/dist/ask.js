import { closeAgent, createAgent } from "./agent.js";
import { CancelledError } from "./errors.js";
export async function ask(prompt, options = {}) {
    const { signal, ...agentOptions } = options ?? {};
    const agent = createAgent(agentOptions);
    const onAbort = () => agent.cancel();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
        if (signal?.aborted) {
            throw new CancelledError("ask(): cancelled before it started", { cause: signal.reason });
        }
        return await agent.execute(prompt);
    }
    finally {
        signal?.removeEventListener("abort", onAbort);
        await closeAgent(agent);
    }
}
