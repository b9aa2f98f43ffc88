// Converts a definition's schemas to JSON Schema with Zod's own converter and
// lists what JSON Schema cannot represent, each with a path. Zod either throws
// without a path (dates, transforms, bigints, ...) or drops things silently
// (refinements), so the conversion runs with unrepresentable: "any" and an
// override hook that records every such schema where it occurs.
import { toJSONSchema } from "zod";
import type * as z from "zod";
import type { Schema, WorkflowDefinition } from "./workflow.js";

/** Which contract a finding belongs to. */
export type Side = "input" | "output";

/** A part of a schema that JSON Schema cannot represent faithfully. */
export interface Unrepresentable {
  side: Side;
  /** JSON Pointer into that side's JSON Schema ("" is the schema itself). */
  path: string;
  /** The Zod construct: "date", "transform", "refine", "bigint", "custom", ... */
  kind: string;
}

/** The JSON description of a definition that the loader prints. */
export interface DefinitionDescription {
  input: Record<string, unknown>;
  output: Record<string, unknown>;
  unrepresentable: Unrepresentable[];
}

// Zod schema types that have no JSON Schema form; Zod throws on them by default.
const unrepresentableTypes = new Set([
  "bigint",
  "custom",
  "date",
  "function",
  "map",
  "nan",
  "promise",
  "set",
  "symbol",
  "transform",
  "undefined",
  "void",
]);

/** Describes definition: input as callers send it, output as run's result parses. */
export function describeDefinition(definition: WorkflowDefinition): DefinitionDescription {
  const found = new Map<string, Unrepresentable>();
  const input = convert(definition.input, "input", found);
  const output = convert(definition.output, "output", found);
  const unrepresentable = [...found.values()].sort(
    (a, b) => compare(a.side, b.side) || compare(a.path, b.path) || compare(a.kind, b.kind),
  );
  return { input, output, unrepresentable };
}

function convert(schema: Schema, side: Side, found: Map<string, Unrepresentable>): Record<string, unknown> {
  return toJSONSchema(schema, {
    io: side,
    unrepresentable: "any",
    override(ctx) {
      for (const kind of kindsOf(ctx.zodSchema)) {
        const path = jsonPointer(ctx.path);
        found.set(`${side}\u0000${path}\u0000${kind}`, { side, path, kind });
      }
    },
  }) as Record<string, unknown>;
}

// The loosely typed view of Zod internals this module reads.
interface ZodInternals {
  _zod: {
    def: {
      type: string;
      checks?: ZodInternals[];
      check?: string;
      in?: ZodInternals;
      out?: ZodInternals;
    };
  };
}

function kindsOf(schema: z.core.$ZodType): string[] {
  const def = (schema as unknown as ZodInternals)._zod.def;
  const kinds: string[] = [];
  if (unrepresentableTypes.has(def.type)) {
    kinds.push(def.type);
  }
  // A .transform() or z.preprocess() is a pipe with a transform on one end;
  // Zod converts the other end, so the schema looks fine but is not the contract.
  if (def.type === "pipe" && (def.in?._zod.def.type === "transform" || def.out?._zod.def.type === "transform")) {
    kinds.push("transform");
  }
  // .refine()/.superRefine()/.check(fn) add "custom" checks that Zod omits silently.
  if (def.checks?.some((c) => c._zod.def.check === "custom")) {
    kinds.push("refine");
  }
  return kinds;
}

function jsonPointer(path: (string | number)[]): string {
  return path.map((p) => "/" + String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join("");
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
