// Regenerates the definition fixtures in this directory from real zod
// schemas: each <case>.json is what the SDK loader hands stratos-build for a
// workflow, {input, output, unrepresentable}, with input converted with
// io:"input" and output with io:"output". The zod source is kept beside it.
//
// Unrepresentable parts (dates, transforms, custom types, refinements) are
// found the way the SDK loader finds them: convert with unrepresentable:"any"
// and record, through `override`, the JSON pointer and kind of each such part.
//
// Usage, with zod at the pinned version (shared/toolchain.ZodVersion):
//   mkdir /tmp/zodfx && cd /tmp/zodfx && npm install zod@4.6.7
//   cp <this file> . && OUT=<this directory> node generate.mjs
import { writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const out = process.env.OUT ?? dirname(fileURLToPath(import.meta.url));

const cases = {
  // A workflow that follows every convention.
  "conforming": {
    input: `z.strictObject({
      repository: z.string().describe("Repository as owner/name."),
      options: z.strictObject({
        depth: z.number().int().default(2).describe(""),
        paths: z.array(z.strictObject({ glob: z.string().describe("Glob.") })).optional().describe("Paths."),
      }).describe("Options."),
      note: z.string().describe("Described before nullable.").nullable(),
      labels: z.record(z.string(), z.strictObject({ color: z.string().describe("Color.") })).describe("Records have no unknown fields."),
      target: z.discriminatedUnion("kind", [
        z.strictObject({ kind: z.literal("branch").describe(""), name: z.string().describe("Branch.") }),
        z.strictObject({ kind: z.literal("tag").describe(""), tag: z.string().describe("Tag.") }),
      ]).describe("Target."),
    })`,
    output: `z.object({
      summary: z.string().describe("Summary."),
      extra: z.looseObject({ id: z.string().describe("") }).describe("Output objects need not be strict."),
      overrides: z.string().describe("Only the input name is reserved."),
    })`,
  },
  "not-objects": {
    input: `z.string().describe("A bare string.")`,
    output: `z.array(z.string())`,
  },
  "union-input": {
    input: `z.union([z.strictObject({ a: z.string().describe("") }), z.strictObject({ b: z.string().describe("") })])`,
    output: `z.strictObject({})`,
  },
  "undescribed": {
    input: `z.strictObject({
      top: z.string(),
      options: z.strictObject({
        depth: z.number(),
        paths: z.array(z.strictObject({ glob: z.string() })).describe("Paths."),
      }),
      target: z.discriminatedUnion("kind", [
        z.strictObject({ kind: z.literal("branch"), name: z.string().describe("Branch.") }),
        z.strictObject({ kind: z.literal("tag").describe(""), tag: z.string() }),
      ]).describe("Target."),
      labels: z.record(z.string(), z.strictObject({ color: z.string() })).describe("Labels."),
      "odd key": z.boolean(),
    })`,
    output: `(() => {
      const Node = z.strictObject({ name: z.string(), get children() { return z.array(Node).describe("Children."); } });
      const Pid = z.string().meta({ id: "Pid" });
      const Described = z.string().meta({ id: "Described", description: "A described id." });
      return z.strictObject({ tree: Node.describe("Tree."), pid: Pid, other: Described, tuple: z.tuple([z.strictObject({ x: z.number() })]).describe("Tuple.") });
    })()`,
  },
  // Undescribed nested fields everywhere and a discriminated union output,
  // whose discriminator needs no description but whose other top-level
  // fields do.
  "union-output": {
    input: `z.strictObject({
      target: z.discriminatedUnion("kind", [
        z.strictObject({ kind: z.literal("branch"), name: z.string() }),
        z.strictObject({ kind: z.literal("tag"), tag: z.string(), options: z.strictObject({ annotated: z.boolean() }) }),
      ]).describe("Target."),
      paths: z.array(z.strictObject({ glob: z.string(), depth: z.number().optional() })).describe("Paths."),
    })`,
    output: `z.discriminatedUnion("status", [
      z.strictObject({ status: z.literal("done"), items: z.array(z.strictObject({ id: z.string(), n: z.number() })).describe("Items.") }),
      z.strictObject({ status: z.enum(["failed", "cancelled"]), reason: z.string() }),
    ])`,
  },
  // A plain z.union of objects is an output too; with no discriminator,
  // every top-level field of each branch needs a description.
  "union-output-plain": {
    input: `z.strictObject({})`,
    output: `z.union([
      z.strictObject({ kind: z.literal("same"), a: z.string().describe("A.") }),
      z.strictObject({ kind: z.literal("same"), b: z.object({ c: z.number() }) }),
    ])`,
  },
  "union-output-not-objects": {
    input: `z.strictObject({})`,
    output: `z.union([z.string(), z.strictObject({ a: z.string().describe("") })])`,
  },
  "overrides-field": {
    input: `z.strictObject({ overrides: z.record(z.string(), z.string()).describe("Clashes with the reserved name."), task: z.string().describe("") })`,
    output: `z.strictObject({ overrides: z.string().describe("Fine on the output side.") })`,
  },
  "not-strict": {
    input: `z.object({
      plain: z.object({ a: z.string().describe("") }).describe("Plain object."),
      loose: z.looseObject({ a: z.string().describe("") }).describe("Loose object."),
      catchall: z.strictObject({ a: z.string().describe("") }).catchall(z.number()).describe("Catchall."),
      items: z.array(z.object({ a: z.string().describe("") })).describe("Array of plain objects."),
      either: z.union([z.object({ a: z.string().describe("") }), z.null()]).describe("Union branch."),
      record: z.record(z.string(), z.object({ a: z.string().describe("") })).describe("Record of plain objects."),
      unknown: z.record(z.string(), z.unknown()).describe("A record is not a loose object."),
      strict: z.strictObject({ a: z.string().describe("") }).describe("Strict."),
    })`,
    output: `z.strictObject({
      loose: z.looseObject({ a: z.string().describe("") }).describe("Output objects may be loose."),
    })`,
  },
  "unrepresentable": {
    input: `z.strictObject({
      when: z.date().describe("A date."),
      options: z.strictObject({
        name: z.string().refine((s) => s.length > 1).describe("A refined string."),
        id: z.bigint().describe("A bigint."),
      }).describe("Options."),
      items: z.array(z.custom((v) => typeof v === "string").describe("Custom.")).describe("Items."),
      parsed: z.string().transform((s) => s.length).describe("A transform on the input side."),
    })`,
    output: `z.strictObject({
      length: z.string().transform((s) => s.length).describe("A transform."),
      at: z.date().describe("A date."),
    })`,
  },
  "everything-wrong": {
    input: `z.object({ overrides: z.string(), when: z.date() })`,
    output: `z.number()`,
  },
};

// The same detection as the SDK's describeDefinition (shared/sdk/src/describe.ts).
const unrepresentableTypes = new Set(["bigint", "custom", "date", "function", "map", "nan", "promise", "set", "symbol", "transform", "undefined", "void"]);

function kindsOf(schema) {
  const def = schema._zod.def;
  const kinds = [];
  if (unrepresentableTypes.has(def.type)) kinds.push(def.type);
  if (def.type === "pipe" && (def.in?._zod.def.type === "transform" || def.out?._zod.def.type === "transform")) kinds.push("transform");
  if (def.checks?.some((c) => c._zod.def.check === "custom")) kinds.push("refine");
  return kinds;
}

function convert(schema, side, found) {
  return z.toJSONSchema(schema, {
    io: side,
    unrepresentable: "any",
    override(ctx) {
      const pointer = ctx.path.map((p) => "/" + String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join("");
      for (const kind of kindsOf(ctx.zodSchema)) found.push({ side, path: pointer, kind });
    },
  });
}

for (const [name, c] of Object.entries(cases)) {
  const found = [];
  const input = convert(eval(c.input), "input", found);
  const output = convert(eval(c.output), "output", found);
  const seen = new Set();
  const unrepresentable = found.filter((u) => {
    const k = JSON.stringify(u);
    return !seen.has(k) && seen.add(k);
  });
  const fixture = { zod: { input: c.input, output: c.output }, input, output, unrepresentable };
  writeFileSync(join(out, `${name}.json`), JSON.stringify(fixture, null, 2) + "\n");
}
