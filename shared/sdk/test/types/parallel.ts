// Compiled (not run) by TestErrorCodesNarrow with the workflow compiler
// flags: parallel, pipeline, ask and nonNull type their results without
// casts, tuple and array forms alike, and wrong uses are type errors.
import { z } from "zod";
import { ask, nonNull, parallel, pipeline } from "../../dist/index.js";

export async function tuples(): Promise<void> {
  const [text, count, flag] = await parallel([async () => "a", () => 2, async () => true]);
  const t: string = text;
  const c: number = count;
  const f: boolean = flag;
  void [t, c, f];

  const [maybe] = await parallel([async () => "a"], { onError: "null" });
  const m: string | null = maybe;
  void m;
  // @ts-expect-error: with onError: "null" a slot can be null.
  const notNull: string = maybe;
  void notNull;
}

export async function arrays(items: readonly string[]): Promise<void> {
  const lengths = await parallel(items.map((s) => async () => s.length), { concurrency: 4 });
  const ls: number[] = lengths;
  void ls;

  const maybe = await parallel(items.map((s) => async () => s.length), { concurrency: 4, onError: "null" });
  const kept: number[] = maybe.filter(nonNull);
  void kept;
  // @ts-expect-error: without nonNull the nulls stay in the type.
  const unfiltered: number[] = maybe;
  void unfiltered;

  // @ts-expect-error: concurrency is a number.
  await parallel([async () => 1], { concurrency: "4" });
  // @ts-expect-error: onError is "reject" or "null".
  await parallel([async () => 1], { onError: "ignore" });
  // @ts-expect-error: parallel takes thunks, not promises.
  await parallel([Promise.resolve(1)]);
}

export async function stages(paths: string[]): Promise<void> {
  const sizes = await pipeline(
    paths,
    async (p) => p.length,
    (n, index) => ({ n, index }),
    async (r) => r.n > 3,
  );
  const bs: boolean[] = sizes;
  void bs;

  const maybe = await pipeline(paths, async (p) => p.toUpperCase(), { concurrency: 2, onError: "null" });
  const ms: (string | null)[] = maybe;
  void ms;
  // @ts-expect-error: a failed item is null with onError: "null".
  const strict: string[] = maybe;
  void strict;

  // @ts-expect-error: the second stage gets the first's number, which has no toUpperCase.
  await pipeline(paths, (p) => p.length, (n) => n.toUpperCase());
}

export async function asking(): Promise<void> {
  const text: string = await ask("Summarize", { configId: "writer" });
  const verdict = await ask("Judge", { configId: "judge", outputSchema: z.strictObject({ approved: z.boolean() }) });
  const approved: boolean = verdict.approved;
  void [text, approved];
  // @ts-expect-error: without outputSchema ask resolves to text.
  const wrong: { approved: boolean } = await ask("Judge", { configId: "judge" });
  void wrong;
}
