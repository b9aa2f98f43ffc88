import type { ValidationIssue } from "./errors.js";
/** What validating a value gives: the parsed value (defaults applied), or the issues. */
export type Validation = {
    ok: true;
    value: unknown;
} | {
    ok: false;
    issues: ValidationIssue[];
};
