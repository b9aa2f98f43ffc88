import { z } from "zod";
import { workflow, createAgent } from "@stratoscli/stratos";

export default workflow({
  input: z.strictObject({
    name: z.string().describe("Who to greet."),
  }),
  output: z.strictObject({
    greeting: z.string().describe("The greeting."),
  }),
  async run(input) {
    // One conversation per invocation: each hello → greet call is a fresh
    // child execution with its own agents.
    const greeter = createAgent({ configId: "greeter" });
    const greeting = await greeter.execute(input.name);
    return { greeting: greeting.trim() };
  },
});
