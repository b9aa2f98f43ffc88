import { existsSync } from "node:fs";
import { z } from "zod";
import { workflow, createAgent } from "@stratoscli/stratos";
import connectTools from "./generated/mcp/tools.js";

// Source stamp (the soak rewrites it to make the run build first): 0

export default workflow({
  input: z.strictObject({
    agents: z.number().int().min(1).describe("Test agents."),
    stop: z.string().describe("Work goes on in rounds until this file exists..."),
    maxSeconds: z.number().min(1).describe("...or for this long."),
  }),
  output: z.strictObject({ calls: z.number().int().describe("Calls answered.") }),
  async run({ agents, stop, maxSeconds }) {
    const deadline = Date.now() + maxSeconds * 1000;
    const tools = await connectTools();
    const echo = Array.from({ length: agents }, () => createAgent({ configId: "echo" }));
    let calls = 0;
    let round = 0;
    do {
      await Promise.all([
        ...echo.map((a, i) => a.execute(`round ${round} agent ${i}`)),
        tools.slow({ millis: 300, steps: 3 }),
      ]);
      calls += agents + 1;
      round++;
    } while (!existsSync(stop) && Date.now() < deadline);
    // The last call: the MCP server is still needed at the end.
    await tools.echo({ text: "done" });
    return { calls: calls + 1 };
  },
});
