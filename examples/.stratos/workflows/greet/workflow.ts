import { z } from "zod";
import { workflow } from "@stratoscli/stratos";

export default workflow({
  input: z.strictObject({
    name: z.string().describe("Who to greet."),
  }),
  output: z.strictObject({
    greeting: z.string().describe("The greeting."),
  }),
  async run(input) {
    return { greeting: `Hello, ${input.name}!` };
  },
});
