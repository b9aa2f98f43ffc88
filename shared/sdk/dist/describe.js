// Converts a definition's schemas to JSON Schema with Zod's own converter and
// lists what JSON Schema cannot represent, each with a path. Zod either throws
// without a path (dates, transforms, bigints, ...) or drops things silently
// (refinements), so the conversion runs with unrepresentable: "any" and an
// override hook that records every such schema where it occurs.
import { toJSONSchema } from "zod";
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
export function describeDefinition(definition) {
    const found = new Map();
    const input = convert(definition.input, "input", found);
    const output = convert(definition.output, "output", found);
    const unrepresentable = [...found.values()].sort((a, b) => compare(a.side, b.side) || compare(a.path, b.path) || compare(a.kind, b.kind));
    return { input, output, unrepresentable };
}
function convert(schema, side, found) {
    return toJSONSchema(schema, {
        io: side,
        unrepresentable: "any",
        override(ctx) {
            for (const kind of kindsOf(ctx.zodSchema)) {
                const path = jsonPointer(ctx.path);
                found.set(`${side}\u0000${path}\u0000${kind}`, { side, path, kind });
            }
        },
    });
}
function kindsOf(schema) {
    const def = schema._zod.def;
    const kinds = [];
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
function jsonPointer(path) {
    return path.map((p) => "/" + String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join("");
}
function compare(a, b) {
    return a < b ? -1 : a > b ? 1 : 0;
}
