import { z } from "zod";
import { workflow, ask, createAgent, isExecutionFailure, parallel, nonNull } from "@stratoscli/stratos";

export default workflow({
  input: z.strictObject({
    configId: z.enum(["echo", "claude-code", "codex", "opencode"]).describe("The agent configuration."),
    agents: z.number().int().min(1).describe("How many agents."),
    turns: z.number().int().min(1).describe("Prompts per agent: 1 asks (the agent closes at once), more is a conversation."),
    concurrency: z.number().int().min(1).describe("Agents at work at once."),
  }),
  output: z.strictObject({
    agents: z.number().int().describe("Agents created."),
    succeeded: z.number().int().describe("Agents whose every turn answered."),
    turns: z.number().int().describe("Turns answered."),
    errors: z.array(z.string()).describe("The first distinct failures of agents that did not answer."),
  }),
  async run({ configId, agents, turns, concurrency }) {
    const errors = new Set<string>();
    const results = await parallel(
      Array.from({ length: agents }, (_, i) => async (signal: AbortSignal) => {
        try {
          if (turns === 1) {
            await ask(`[soak] agent ${i}`, { configId, label: `a${i}`, signal });
            return 1;
          }
          const agent = createAgent({ configId, label: `a${i}` });
          for (let t = 0; t < turns; t++) {
            await agent.execute(`[soak] agent ${i} turn ${t}`);
          }
          return turns;
        } catch (err) {
          // An agent whose turn failed counts as missing, as with
          // onError: "null"; anything else (cancellation, a broken
          // configuration) fails the run.
          if (!isExecutionFailure(err)) throw err;
          if (errors.size < 5) errors.add(err instanceof Error ? err.message : String(err));
          return null;
        }
      }),
      { concurrency },
    );
    const done = results.filter(nonNull);
    return { agents, succeeded: done.length, turns: done.reduce((a, b) => a + b, 0), errors: [...errors] };
  },
});
