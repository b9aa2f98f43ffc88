import { z } from "zod";
import { workflow, createAgent } from "@stratoscli/stratos";
import connectTools from "./generated/mcp/tools.js";

// Source stamp (the soak rewrites it to make the run build first): 0

export default workflow({
  input: z.strictObject({
    rounds: z.number().int().min(1).describe("Rounds of work."),
    agents: z.number().int().min(1).describe("Test agents."),
  }),
  output: z.strictObject({ calls: z.number().int().describe("Calls answered.") }),
  async run({ rounds, agents }) {
    const tools = await connectTools();
    const echo = Array.from({ length: agents }, () => createAgent({ configId: "echo" }));
    let calls = 0;
    for (let r = 0; r < rounds; r++) {
      await Promise.all([
        ...echo.map((a, i) => a.execute(`round ${r} agent ${i}`)),
        tools.slow({ millis: 300, steps: 3 }),
      ]);
      calls += agents + 1;
    }
    // The last call: the MCP server is still needed at the end.
    await tools.echo({ text: "done" });
    return { calls: calls + 1 };
  },
});
