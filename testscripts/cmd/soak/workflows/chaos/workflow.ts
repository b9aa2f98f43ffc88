import { existsSync } from "node:fs";
import { z } from "zod";
import { workflow, createAgent } from "@stratoscli/stratos";
import createWorker from "../.generated/worker.js";

// Source stamp (the soak rewrites it to make the run build first): 0

export default workflow({
  input: z.strictObject({
    agents: z.number().int().min(1).describe("Test agents of the child."),
    stop: z.string().describe("Work goes on in rounds until this file exists..."),
    maxSeconds: z.number().min(1).describe("...or for this long."),
  }),
  output: z.strictObject({ calls: z.number().int().describe("Calls answered.") }),
  async run({ agents, stop, maxSeconds }) {
    const deadline = Date.now() + maxSeconds * 1000;
    const real = createAgent({ configId: "real" });
    const echo = createAgent({ configId: "echo" });
    const parentRounds = async () => {
      let calls = 0;
      do {
        await Promise.all([real.execute(`[soak] round ${calls / 2}`), echo.execute(`parent round ${calls / 2}`)]);
        calls += 2;
      } while (!existsSync(stop) && Date.now() < deadline);
      return calls;
    };
    // Every process of the run stays at work until the end, and the
    // child's failure fails the run at once.
    const [mine, child] = await Promise.all([parentRounds(), createWorker().execute({ agents, stop, maxSeconds })]);
    // The last call: the real harness is still needed at the end.
    await real.execute("[soak] done");
    return { calls: mine + child.calls + 1 };
  },
});
