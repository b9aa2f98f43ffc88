import { z } from "zod";
import { workflow } from "@stratoscli/stratos";
import createGreet from "../.generated/greet.js";

export default workflow({
  input: z.strictObject({
    names: z.array(z.string()).default(["Ada", "Grace"]).describe("Who to greet."),
  }),
  output: z.strictObject({
    greetings: z.array(z.string()).describe("One greeting per name, in order."),
  }),
  async run(input) {
    const greet = createGreet();
    const results = await Promise.all(input.names.map((name) => greet.execute({ name })));
    return { greetings: results.map((r) => r.greeting) };
  },
});
