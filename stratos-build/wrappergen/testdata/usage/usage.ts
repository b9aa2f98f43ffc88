// A parent workflow's use of the generated wrappers, type-checked by
// TestWrappersCompileWithTsc under the pinned strict compiler flags. Each
// `@ts-expect-error` line must fail to compile: tsc reports an unused
// directive (TS2578) when the line below it type-checks after all.
import createReviewPr, { type ReviewPrInput, type ReviewPrOutput } from "../.generated/review-pr.js";
import createNullableFields from "../.generated/nullable-fields.js";
import createEnumsAndLiterals from "../.generated/enums-and-literals.js";
import createArraysAndTuples from "../.generated/arrays-and-tuples.js";
import createRecords from "../.generated/records.js";
import createRecursiveTree, { type RecursiveTreeInput } from "../.generated/recursive-tree.js";
import createTrickyDescriptions from "../.generated/tricky-descriptions.js";
import createEmptyIo from "../.generated/empty-io.js";
import createUnionOutput, { type UnionOutputOutput } from "../.generated/union-output.js";
import createV2Deploy3d from "../.generated/v2-deploy-3d.js";
import type { ChildWorkflow } from "@stratoscli/stratos";

export async function reviewPr(): Promise<string> {
  const child = createReviewPr({ overrides: { agents: { a: { effort: "max" } } } });
  const first: ReviewPrOutput = await child.execute({ repository: "org/repo", pullNumber: 42 });
  await child.execute({ repository: "org/repo", pullNumber: 43, options: { strict: true, depth: 3, paths: ["src"] } });
  const severity: "info" | "warning" | "error" | undefined = first.findings[0]?.severity;
  const suggestion: string | null | undefined = first.findings[0]?.suggestion;

  // @ts-expect-error pullNumber is required
  await child.execute({ repository: "org/repo" });
  // @ts-expect-error pullNumber is a number
  await child.execute({ repository: "org/repo", pullNumber: "42" });
  // @ts-expect-error unknown input fields are rejected
  await child.execute({ repository: "org/repo", pullNumber: 42, extra: true });
  // @ts-expect-error nested input objects are closed too
  await child.execute({ repository: "org/repo", pullNumber: 42, options: { strict: true, depht: 3 } });
  // @ts-expect-error options.strict has no default, so it is required
  await child.execute({ repository: "org/repo", pullNumber: 42, options: {} });
  // @ts-expect-error execute takes no per-execution overrides
  await child.execute({ repository: "org/repo", pullNumber: 42 }, { overrides: {} });
  // @ts-expect-error output fields keep their types
  const wrong: number = first.summary;
  return `${severity}${suggestion}${wrong}`;
}

export function overrides(): ChildWorkflow<ReviewPrInput, ReviewPrOutput>[] {
  return [
    createReviewPr(),
    createReviewPr({}),
    createReviewPr({ overrides: { agents: { validator: { harness: "codex", model: ["gpt-5", "o3"], effort: "low", extra: 1 } }, decision: { any: true } } }),
    // @ts-expect-error effort is a string
    createReviewPr({ overrides: { agents: { a: { effort: 3 } } } }),
    // @ts-expect-error overrides only have agents and decision
    createReviewPr({ overrides: { agent: {} } }),
  ];
}

export async function nullable(): Promise<void> {
  const child = createNullableFields();
  await child.execute({ title: null, note: "n", level: null, nothing: null });
  await child.execute({ title: "t", note: null, level: "high", nothing: null, owner: { login: "me" }, count: null });
  await child.execute({ title: "t", note: null, level: "low", nothing: null, owner: null });
  // @ts-expect-error null is accepted only where declared
  await child.execute({ title: "t", note: null, level: "low", nothing: null, owner: { login: null } });
  // @ts-expect-error nullable is not optional
  await child.execute({ note: null, level: "low", nothing: null });
  const out = await child.execute({ title: null, note: null, level: null, nothing: null });
  const result: string | number | null = out.result;
  // @ts-expect-error the output may be null
  const notNull: string | number = out.result;
  void result, notNull;
}

export async function enums(): Promise<void> {
  const child = createEnumsAndLiterals();
  const input = { mode: "fast", mixed: 2, kind: "review", answer: 42, flag: true, pick: "b", either: false, quoted: 'say "hi"' } as const;
  const out = await child.execute(input);
  // @ts-expect-error not one of the enum values
  await child.execute({ ...input, mode: "slow" });
  // @ts-expect-error literal 42 only
  await child.execute({ ...input, answer: 41 });
  // @ts-expect-error the back\slash literal has one backslash
  await child.execute({ ...input, quoted: "back\\\\slash" });
  await child.execute({ ...input, quoted: "back\\slash" });
  if (out.event.type === "created") {
    const id: string = out.event.id;
    void id;
  } else {
    const reason: string | undefined = out.event.reason;
    // @ts-expect-error id exists only on the "created" branch
    void reason, out.event.id;
  }
}

export async function arrays(): Promise<void> {
  const child = createArraysAndTuples();
  const ok = { tags: [], matrix: [[1, 2], []], choices: ["a", { id: 1 }], pair: ["a", 1], range: [1], command: ["git", "status", "-s"], nonEmpty: ["x"] } satisfies Parameters<typeof child.execute>[0];
  await child.execute(ok);
  await child.execute({ ...ok, range: [1, 2] });
  // @ts-expect-error a closed tuple has exactly its elements
  await child.execute({ ...ok, pair: ["a", 1, 2] });
  // @ts-expect-error tuple element types are positional
  await child.execute({ ...ok, pair: [1, "a"] });
  // @ts-expect-error the first command element is required
  await child.execute({ ...ok, command: [] });
  const out = await child.execute(ok);
  const cell: string | null | undefined = out.rows[0]?.cells[0];
  void cell;
}

export async function records(): Promise<void> {
  const child = createRecords();
  const ok = { weights: { a: 1 }, toggles: { lint: true, test: false }, limits: { cpu: 2 }, people: { ann: { age: 3 } } };
  await child.execute(ok);
  // @ts-expect-error an exhaustive enum-keyed record needs every key
  await child.execute({ ...ok, toggles: { lint: true } });
  // @ts-expect-error enum-keyed records have no other keys
  await child.execute({ ...ok, limits: { disk: 1 } });
  // @ts-expect-error record values are typed
  await child.execute({ ...ok, weights: { a: "1" } });
  const out = await child.execute(ok);
  const extra: unknown = out.loose["anything"];
  const counter: number | string | undefined = out.counters["other"];
  const total: number = out.counters.total;
  void extra, counter, total;
}

export async function recursion(): Promise<void> {
  const tree: RecursiveTreeInput = { name: "root", children: [{ name: "leaf", children: [] }] };
  const out = await createRecursiveTree().execute(tree);
  const label: string | undefined = out.root.sub?.[0]?.sub?.[0]?.label;
  const owner: string = out.owner;
  // @ts-expect-error children are nodes
  await createRecursiveTree().execute({ name: "root", children: [{ name: "leaf" }] });
  void label, owner;
}

export async function descriptions(): Promise<boolean> {
  const out = await createTrickyDescriptions().execute({ glob: "*", multi: "", empty: "", "my-key": 1, "2fa": true, café: "☕" });
  return out.ok;
}

export async function empty(): Promise<void> {
  const out = await createEmptyIo().execute({});
  // @ts-expect-error the empty input object is closed
  await createEmptyIo().execute({ a: 1 });
  // @ts-expect-error the output has no fields
  const missing: string = out.missing;
  void missing;
}

export async function deploy(): Promise<void> {
  const child = createV2Deploy3d({ overrides: { decision: { strategy: "fast" } } });
  const out = await child.execute({ anything: { any: ["thing"] } });
  await child.execute({ anything: null, target: "production", dryRun: true, email: "a@b.c" });
  // @ts-expect-error unknown-typed fields are still required
  await child.execute({ target: "staging" });
  const url: string = out.url;
  const at: string = out.meta.at;
  void url, at;
}

export async function unionOutput(): Promise<string> {
  const child = createUnionOutput();
  const out: UnionOutputOutput = await child.execute({ task: "t", target: { kind: "branch", name: "main" } });
  await child.execute({ task: "t", target: { kind: "tag", tag: "v1", annotated: true } });
  // @ts-expect-error a branch's fields go with its discriminator
  await child.execute({ task: "t", target: { kind: "branch", tag: "v1" } });
  // @ts-expect-error nested union branches are closed like other input objects
  await child.execute({ task: "t", target: { kind: "tag", tag: "v1", name: "main" } });
  // @ts-expect-error items exist only once the status says "done"
  void out.items;
  switch (out.status) {
    case "done": {
      const score: number | null | undefined = out.items[0]?.score;
      return `${out.items.length}${score}`;
    }
    case "failed":
    case "skipped": {
      const reason: string = out.reason;
      return reason;
    }
    default: {
      const none: never = out;
      return none;
    }
  }
}
