/** Validates value against schema. @internal */
export async function validate(schema, value) {
    const standard = schema["~standard"];
    if (standard === undefined || typeof standard.validate !== "function") {
        throw new TypeError("the schema is not a Zod 4 schema (it has no ~standard interface)");
    }
    const result = await standard.validate(value);
    if (result.issues === undefined) {
        return { ok: true, value: result.value };
    }
    return { ok: false, issues: toIssues(result.issues) };
}
/**
 * Flattens Zod's issues into ValidationIssues sorted by path (segment by
 * segment, array indexes as numbers), then message: the same mismatch is
 * always reported the same way. @internal
 */
export function toIssues(raw) {
    return raw.flatMap(flatten).sort(compareIssues);
}
function compareIssues(a, b) {
    const as = a.path.split("."), bs = b.path.split(".");
    for (let i = 0; i < as.length && i < bs.length; i++) {
        const c = compareSegment(as[i] ?? "", bs[i] ?? "");
        if (c !== 0) {
            return c;
        }
    }
    return as.length - bs.length || compareStrings(a.message, b.message);
}
function compareSegment(a, b) {
    const numeric = /^(0|[1-9][0-9]*)$/;
    return numeric.test(a) && numeric.test(b) ? Number(a) - Number(b) : compareStrings(a, b);
}
function compareStrings(a, b) {
    return a < b ? -1 : a > b ? 1 : 0;
}
// flatten flattens one Zod issue. An unrecognized_keys issue names the keys
// of one object; it becomes one issue per key, each with the key's own path,
// so that messages and details name the field at fault.
function flatten(raw) {
    const path = (raw.path ?? []).map((p) => String(typeof p === "object" && p !== null ? p.key : p));
    const code = typeof raw.code === "string" ? raw.code : undefined;
    if (code === "unrecognized_keys" && Array.isArray(raw.keys) && raw.keys.length > 0) {
        return raw.keys.map((key) => ({ path: [...path, String(key)].join("."), message: "unknown field (not in the schema)", code }));
    }
    return [code === undefined ? { path: path.join("."), message: raw.message } : { path: path.join("."), message: raw.message, code }];
}
