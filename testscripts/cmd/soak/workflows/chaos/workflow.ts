import { z } from "zod";
import { workflow, createAgent } from "@stratoscli/stratos";
import createWorker from "../.generated/worker.js";

// Source stamp (the soak rewrites it to make the run build first): 0

export default workflow({
  input: z.strictObject({
    rounds: z.number().int().min(1).describe("Rounds of work."),
    agents: z.number().int().min(1).describe("Test agents of the child."),
  }),
  output: z.strictObject({ calls: z.number().int().describe("Calls answered.") }),
  async run({ rounds, agents }) {
    const real = createAgent({ configId: "real" });
    const echo = createAgent({ configId: "echo" });
    const parentRounds = async () => {
      let calls = 0;
      for (let r = 0; r < rounds; r++) {
        await Promise.all([real.execute(`[soak] round ${r}`), echo.execute(`parent round ${r}`)]);
        calls += 2;
      }
      return calls;
    };
    // The child's failure fails the run at once, while the parent's
    // rounds are still at work.
    const [mine, child] = await Promise.all([parentRounds(), createWorker().execute({ rounds, agents })]);
    // The last call: the real harness is still needed at the end.
    await real.execute("[soak] done");
    return { calls: mine + child.calls + 1 };
  },
});
