// Compiled (not run) by TestErrorCodesNarrow with the workflow compiler
// flags: a decision's answer is typed by its question, without `as const`,
// and narrows; decision errors narrow on their code.
import {
  choice,
  decision,
  isSdkError,
  score,
  verdict,
  type Decision,
  type DecisionInvalidAnswerError,
  type Verdict,
} from "../../dist/index.js";

export async function route(report: string): Promise<"frontend" | "backend"> {
  const d = await decision(choice(`Which team owns this? ${report}`, ["frontend", "backend"]));
  const team: "frontend" | "backend" = d.answer;
  // @ts-expect-error: "infra" is not one of the options.
  if (d.answer === "infra") {
    return "frontend";
  }
  // @ts-expect-error: the answer is one of two strings, not any string.
  const one: "frontend" = d.answer;
  void one;
  return team;
}

export async function triage(finding: string): Promise<string> {
  const q = choice(`What do we do with this finding? ${finding}`, [
    { id: "fix", description: "the finding is real", severity: 2 },
    { id: "skip", description: "a false positive" },
  ]);
  const { answer } = await decision(q, { model: "qwen3:8b", samples: 3, reasons: true });
  if (answer.id === "fix") {
    const severity: number = answer.severity;
    return `fix (${severity})`;
  }
  // @ts-expect-error: only the "fix" option has a severity.
  void answer.severity;
  // @ts-expect-error: no option has the id "later".
  if (answer.id === "later") {
    return "later";
  }
  return answer.id;
}

export async function grade(patch: string): Promise<number> {
  const d: Decision<number> = await decision(score(`How good is this patch? ${patch}`, { min: 1, max: 10 }));
  // @ts-expect-error: a score is a number, not a string.
  const s: string = d.answer;
  void s;
  return d.answer * d.confidence;
}

export async function done(log: string): Promise<boolean> {
  const { answer, reasons } = await decision(verdict(`Do all tests pass? ${log}`), { signal: AbortSignal.timeout(1000) });
  const v: Verdict = answer;
  // @ts-expect-error: a verdict is yes, no or unsure.
  if (v === "maybe") {
    return false;
  }
  const why: readonly string[] | undefined = reasons;
  void why;
  return answer === "yes";
}

export function options(): void {
  // @ts-expect-error: samples is a number.
  void decision(verdict("x"), { samples: "3" });
  // @ts-expect-error: a question is made by a builder.
  void decision({ kind: "guess", prompt: "x" });
}

export function errors(err: unknown): string {
  if (isSdkError(err)) {
    switch (err.code) {
      case "decision_invalid_answer": {
        const invalid: DecisionInvalidAnswerError = err;
        return invalid.decisionId;
      }
      case "decision_timeout":
        return err.decisionId;
      // @ts-expect-error: "decision_wrong" is not a code the SDK raises.
      case "decision_wrong":
        return "";
    }
  }
  return "";
}
