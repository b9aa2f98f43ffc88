import { z } from "zod";
import { workflow, createAgent } from "@stratoscli/stratos";

const Verdict = z.object({
  approved: z.boolean(),
  issues: z.array(z.string()),
});

export default workflow({
  input: z.strictObject({
    change: z.string().default("rename answer to result").describe("The change to review."),
  }),
  output: z.strictObject({
    review: z.string().describe("The reviewer's comments."),
    followUp: z.string().describe("The reviewer's answer to a follow-up question, in the same conversation."),
    approved: z.boolean().describe("The judge's verdict."),
    toolCalls: z.array(z.string()).describe("The tool calls the reviewer made, as its beforeToolCall hook saw them."),
  }),
  async run(input) {
    const toolCalls: string[] = [];
    const reviewer = createAgent({
      configId: "reviewer",
      hooks: {
        beforeToolCall(call) {
          toolCalls.push(`${call.toolName} ${JSON.stringify(call.input)}`);
        },
      },
    });
    const review = await reviewer.execute(`Review this change: ${input.change}`);
    const followUp = await reviewer.execute("Anything else?");

    const judge = createAgent({ configId: "judge", outputSchema: Verdict });
    const verdict = await judge.execute({ template: "prompts/verdict.hbs" }, { review });
    return { review, followUp, approved: verdict.approved, toolCalls };
  },
});
