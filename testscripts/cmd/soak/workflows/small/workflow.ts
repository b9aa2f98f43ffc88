import { z } from "zod";
import { workflow, ask } from "@stratoscli/stratos";

export default workflow({
  input: z.strictObject({ n: z.number().int().describe("The run's number.") }),
  output: z.strictObject({ reply: z.string().describe("The agent's reply.") }),
  async run({ n }) {
    return { reply: await ask(`run ${n}`, { configId: "echo" }) };
  },
});
