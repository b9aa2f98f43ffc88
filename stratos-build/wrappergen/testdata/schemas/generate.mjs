// Regenerates the schema fixtures in this directory from real zod schemas, so
// the golden tests run against exactly what zod's toJSONSchema emits (input
// side with io:"input", output side with io:"output", as the SDK loader does).
//
// Usage, with zod at the pinned version (shared/toolchain.ZodVersion):
//   mkdir /tmp/zodfx && cd /tmp/zodfx && npm install zod@4.6.7
//   cp <this file> . && OUT=<this directory> node generate.mjs
// then `go test ./wrappergen -run TestGoldenWrappers -update` and review the
// golden diff.
import { writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const out = process.env.OUT ?? dirname(fileURLToPath(import.meta.url));

// Each case is zod source text for the input and output schema; it is kept in
// the fixture so a reader sees which zod code produced which JSON Schema.
const cases = {
  "review-pr": {
    input: `z.strictObject({
      repository: z.string().describe("Repository as owner/name."),
      pullNumber: z.number().int().positive().describe("Pull request number."),
      options: z.strictObject({
        depth: z.number().int().default(2).describe("How many review passes to run."),
        paths: z.array(z.string()).optional().describe("Only review these paths."),
        strict: z.boolean().describe(""),
      }).optional().describe("Tuning knobs."),
    })`,
    output: `z.strictObject({
      summary: z.string().describe("One-paragraph verdict."),
      approved: z.boolean().describe("Whether the change can merge."),
      findings: z.array(z.strictObject({
        file: z.string().describe("Path of the file."),
        line: z.number().int().describe("1-based line."),
        severity: z.enum(["info", "warning", "error"]).describe("How bad it is."),
        suggestion: z.string().nullable().describe("Replacement text, if any."),
      })).default([]).describe("What the reviewers found."),
    })`,
  },
  "nullable-fields": {
    input: `z.strictObject({
      title: z.string().nullable().describe("Nullable string."),
      note: z.string().describe("Described before nullable.").nullable(),
      level: z.enum(["low", "high"]).nullable().describe("Nullable enum."),
      owner: z.strictObject({ login: z.string().describe("") }).nullable().optional().describe("Nullable optional object."),
      nothing: z.null().describe("Always null."),
      count: z.number().nullable().default(null).describe("Nullable with a null default."),
    })`,
    output: `z.strictObject({
      result: z.union([z.string(), z.number(), z.null()]).describe("Union of primitives and null."),
    })`,
  },
  "enums-and-literals": {
    input: `z.strictObject({
      mode: z.enum(["fast", "thorough"]).describe("String enum."),
      mixed: z.enum({ A: "a", B: 2 }).describe("Enum object with a number value."),
      kind: z.literal("review").describe("String literal."),
      answer: z.literal(42).describe("Number literal."),
      flag: z.literal(true).describe("Boolean literal."),
      pick: z.literal(["a", "b"]).describe("Literal list."),
      either: z.union([z.literal("x"), z.literal(1), z.literal(false)]).describe("Literal union."),
      quoted: z.enum(["it's", 'say "hi"', "back\\\\slash"]).describe("Strings needing escapes."),
    })`,
    output: `z.strictObject({
      event: z.discriminatedUnion("type", [
        z.strictObject({ type: z.literal("created").describe(""), id: z.string().describe("New id.") }),
        z.strictObject({ type: z.literal("deleted").describe(""), reason: z.string().optional().describe("Why.") }),
      ]).describe("Discriminated union."),
      value: z.union([z.string(), z.number().int()]).describe("Primitive union."),
    })`,
  },
  "arrays-and-tuples": {
    input: `z.strictObject({
      tags: z.array(z.string()).describe("Plain array."),
      matrix: z.array(z.array(z.number())).describe("Nested arrays."),
      choices: z.array(z.union([z.string(), z.strictObject({ id: z.number().describe("") })])).describe("Array of a union."),
      pair: z.tuple([z.string(), z.number()]).describe("Closed tuple."),
      range: z.tuple([z.number(), z.number().optional()]).describe("Tuple with an optional element."),
      command: z.tuple([z.string()], z.string()).describe("Tuple with a rest element."),
      nonEmpty: z.array(z.string()).min(1).describe("Length constraints are not types."),
    })`,
    output: `z.strictObject({
      rows: z.array(z.strictObject({ cells: z.array(z.string().nullable()).describe("") })).describe("Array of objects."),
    })`,
  },
  "records": {
    input: `z.strictObject({
      weights: z.record(z.string(), z.number()).describe("String-keyed record."),
      toggles: z.record(z.enum(["lint", "test"]), z.boolean()).describe("Exhaustive enum-keyed record."),
      limits: z.partialRecord(z.enum(["cpu", "memory"]), z.number()).describe("Partial enum-keyed record."),
      people: z.record(z.string(), z.strictObject({ age: z.number().describe("") })).describe("Record of objects."),
    })`,
    output: `z.strictObject({
      loose: z.looseObject({ id: z.string().describe("") }).describe("Passes unknown keys through."),
      counters: z.strictObject({ total: z.number().describe(""), label: z.string().optional().describe("") }).catchall(z.number()).describe("Catchall of numbers."),
      anything: z.record(z.string(), z.unknown()).describe("Record of unknown."),
    })`,
  },
  "recursive-tree": {
    input: `(() => {
      const Node = z.strictObject({
        name: z.string().describe("Node name."),
        get children() { return z.array(Node).describe("Child nodes."); },
      });
      return Node;
    })()`,
    output: `(() => {
      const Category = z.strictObject({
        label: z.string().describe("Label."),
        get sub() { return z.array(Category).optional().describe("Subcategories."); },
      });
      const Pid = z.string().meta({ id: "Pid", description: "Process id." });
      return z.strictObject({
        root: Category.describe("Category tree."),
        owner: Pid,
        others: z.array(Pid).describe("More ids."),
      });
    })()`,
  },
  "tricky-descriptions": {
    input: `z.strictObject({
      glob: z.string().describe("Matches src/**/*.ts */ and more"),
      multi: z.string().describe("First line.\\nSecond line with * star.\\n\\nAfter a blank line."),
      empty: z.string().describe(""),
      withDefault: z.string().default("a */ b").describe("Default containing the comment end."),
      "my-key": z.number().describe("Hyphenated key."),
      "2fa": z.boolean().describe("Key starting with a digit."),
      "with space": z.string().optional().describe("Key with a space."),
      café: z.string().describe("Non-ASCII identifier key: ünïcödé ✓."),
    }).describe("Root description */ too.")`,
    output: `z.strictObject({ ok: z.boolean().describe("Done.") })`,
  },
  "union-output": {
    input: `z.strictObject({
      task: z.string().describe("What to do."),
      target: z.discriminatedUnion("kind", [
        z.strictObject({ kind: z.literal("branch"), name: z.string() }),
        z.strictObject({ kind: z.literal("tag"), tag: z.string(), annotated: z.boolean().default(false) }),
      ]).describe("Nested fields need no description."),
    })`,
    output: `z.discriminatedUnion("status", [
      z.strictObject({
        status: z.literal("done"),
        items: z.array(z.strictObject({ id: z.string(), score: z.number().nullable() })).describe("What was done."),
      }).describe("It worked."),
      z.strictObject({ status: z.enum(["failed", "skipped"]), reason: z.string().describe("Why not.") }),
    ]).describe("Done, or why not.")`,
  },
  "empty-io": {
    input: `z.strictObject({})`,
    output: `z.strictObject({})`,
  },
  "v2-deploy-3d": {
    input: `z.strictObject({
      target: z.enum(["staging", "production"]).default("staging").describe("Where to deploy."),
      dryRun: z.boolean().default(false).describe("Plan only."),
      anything: z.unknown().describe("Opaque payload."),
      email: z.email().optional().describe("Format checks are not types."),
    })`,
    output: `z.strictObject({
      url: z.url().describe("Deployed URL."),
      impossible: z.never().optional().describe("Never present."),
      meta: z.object({ at: z.iso.datetime().describe("") }).describe("Plain object: output side is closed."),
    })`,
  },
};

for (const [name, c] of Object.entries(cases)) {
  const input = eval(c.input);
  const output = eval(c.output);
  const fixture = {
    zod: { input: dedent(c.input), output: dedent(c.output) },
    input: input.toJSONSchema({ io: "input" }),
    output: output.toJSONSchema({ io: "output" }),
  };
  writeFileSync(join(out, `${name}.json`), JSON.stringify(fixture, null, 2) + "\n");
}

function dedent(s) {
  const lines = s.split("\n");
  const indents = lines.slice(1).filter((l) => l.trim()).map((l) => l.match(/^ */)[0].length);
  const cut = Math.max(0, Math.min(...indents) - 2);
  return [lines[0], ...lines.slice(1).map((l) => l.slice(cut))].join("\n");
}
