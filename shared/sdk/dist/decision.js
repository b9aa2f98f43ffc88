// Decisions: small, typed judgements that steer a workflow, answered by a
// model directly (no harness, no tools, no conversation). The builders
// (choice, score, verdict) are pure: they return frozen question objects
// and execute nothing. decision(question, options) asks the agent host
// (decision.ask), which resolves the configuration, calls the model and
// validates the answer; this side maps the answer back to the question's
// own values, cancels through `signal` and the run, and journals the
// result so that a resumed run does not ask again. The design is in the
// repository's docs/design/decision.md.
import { getContext } from "./context.js";
import { CancelledError, ContextClosedError, StratosError, toError } from "./errors.js";
import { agentHostFor, HostError } from "./agent-host.js";
import { Methods } from "./agent-protocol.js";
import { decisionErrorFor } from "./decision-errors.js";
import { inputHash } from "./journal.js";
const maxOptions = 64;
const maxOptionId = 200;
/**
 * A choice among options, offered to the model in the given order. The
 * answer is the option chosen, as given: choice("…", ["red", "blue"])
 * answers "red" | "blue"; options may be objects with an id.
 */
export function choice(prompt, options) {
    checkPrompt("choice", prompt);
    if (!Array.isArray(options) || options.length < 2 || options.length > maxOptions) {
        throw new TypeError(`choice(): options must be an array of 2 to ${maxOptions} options`);
    }
    const seen = new Set();
    const copies = options.map((o, i) => {
        const id = optionId(o);
        if (typeof id !== "string" || id === "" || id.length > maxOptionId) {
            throw new TypeError(`choice(): option ${i} must be a non-empty string or an object with a non-empty string id (at most ${maxOptionId} characters)`);
        }
        if (typeof o === "object" && o.description !== undefined && typeof o.description !== "string") {
            throw new TypeError(`choice(): the description of option "${id}" must be a string`);
        }
        if (seen.has(id)) {
            throw new TypeError(`choice(): option "${id}" is given twice`);
        }
        seen.add(id);
        return typeof o === "string" ? o : Object.freeze({ ...o });
    });
    return Object.freeze({ kind: "choice", prompt, options: Object.freeze(copies) });
}
/** A score from min to max (with step: min plus a whole number of steps); the answer is a number. */
export function score(prompt, range) {
    checkPrompt("score", prompt);
    const { min, max, step } = range ?? {};
    if (!Number.isFinite(min) || !Number.isFinite(max) || !(min < max)) {
        throw new TypeError("score(): min and max must be finite numbers with min < max");
    }
    if (step !== undefined && !(Number.isFinite(step) && step > 0 && step <= max - min)) {
        throw new TypeError("score(): step must be a positive number no larger than max - min");
    }
    return Object.freeze(step === undefined ? { kind: "score", prompt, min, max } : { kind: "score", prompt, min, max, step });
}
/** A yes/no/unsure judgement; the answer is "yes", "no" or "unsure". */
export function verdict(prompt) {
    checkPrompt("verdict", prompt);
    return Object.freeze({ kind: "verdict", prompt });
}
function checkPrompt(builder, prompt) {
    if (typeof prompt !== "string" || prompt.trim() === "") {
        throw new TypeError(`${builder}(): the prompt must be a non-empty string`);
    }
}
function optionId(o) {
    return typeof o === "string" ? o : typeof o === "object" && o !== null ? o.id : undefined;
}
const counters = new WeakMap();
/**
 * Asks question of the model the decision configuration names (call
 * options > invocation overrides > workflow.yaml) and resolves to the
 * validated answer, typed by the question. Rejects with a DecisionError
 * (configuration, endpoint, model, invalid answer, timeout, admission),
 * CancelledError when signal aborts or the run is cancelled, and throws
 * NoExecutionContextError outside a running workflow.
 */
export async function decision(question, options) {
    const ctx = getContext("decision()");
    ctx.assertAccepting("decision()");
    const wire = wireQuestion(question);
    const { signal, ...call } = checkOptions(options);
    const n = (counters.get(ctx) ?? 0) + 1;
    counters.set(ctx, n);
    const entry = ctx.host.workflows[ctx.workflow];
    const yaml = entry?.config?.decision ?? undefined;
    const overrides = ctx.overrides.decision;
    const config = {
        ...(yaml === undefined || yaml === null ? {} : { yaml: yaml }),
        ...(overrides === undefined ? {} : { overrides: overrides }),
        ...(Object.keys(call).length === 0 ? {} : { call: call }),
    };
    const phase = ctx.phase(); // not hashed (journalled): renaming a phase does not change what resuming replays
    const params = {
        decisionId: `${ctx.executionId}/decision-${n}`,
        executionId: ctx.executionId,
        workflow: { name: ctx.workflow, dir: entry?.dir ?? "" },
        question: wire,
        config,
        ...(phase === "" ? {} : { phase }),
    };
    const result = await journalled(ctx, params, signal);
    return answerOf(question, result, params.decisionId);
}
// journalled asks, or answers from the journal when the execution being
// resumed asked the same at this place and got an answer.
async function journalled(ctx, params, signal) {
    const journal = ctx.host.journal;
    if (journal === undefined) {
        return ask(ctx, params, signal);
    }
    const hash = inputHash({ question: params.question, config: params.config });
    const place = journal.placeDecision(ctx.journalPath, hash);
    const replayed = place.replayed?.decision?.result;
    if (replayed !== undefined) {
        return replayed;
    }
    try {
        const result = await ask(ctx, params, signal);
        journal.recordDecision(ctx.journalPath, place, hash, result);
        return result;
    }
    catch (err) {
        journal.recordDecision(ctx.journalPath, place, hash, undefined, toError(err));
        throw err;
    }
}
// ask sends decision.ask; an abort of signal or of the execution sends
// decision.cancel, which the host may see before or after the ask.
async function ask(ctx, params, signal) {
    if (signal?.aborted === true) {
        throw new CancelledError(`decision ${params.decisionId} was cancelled before it was asked`, { cause: signal.reason });
    }
    const host = agentHostFor(ctx);
    const cancel = () => host.notify(Methods.decisionCancel, { decisionId: params.decisionId });
    signal?.addEventListener("abort", cancel, { once: true });
    ctx.signal.addEventListener("abort", cancel, { once: true });
    try {
        await host.ready;
        return (await host.call(Methods.decisionAsk, params));
    }
    catch (err) {
        throw hostError(ctx, params.decisionId, err, signal);
    }
    finally {
        signal?.removeEventListener("abort", cancel);
        ctx.signal.removeEventListener("abort", cancel);
    }
}
// hostError maps a failed decision.ask to the SDK's typed error.
function hostError(ctx, id, err, signal) {
    if (!(err instanceof HostError)) {
        return err instanceof StratosError ? err : new StratosError("internal", `decision ${id}: ${toError(err).message}`, { cause: err, details: { decisionId: id } });
    }
    const code = err.data?.code ?? "internal";
    const details = err.data?.details ?? {};
    switch (code) {
        case "cancelled":
            return new CancelledError(err.message, { cause: signal?.aborted === true ? signal.reason : ctx.signal.aborted ? ctx.signal.reason : undefined });
        case "context_closed":
            return new ContextClosedError(`decision ${id}`, ctx.workflow, ctx.executionId, "closed");
    }
    // The host and the SDK ship together: another code is a bug, kept as it is.
    return decisionErrorFor(code, id, err.message, details) ?? new StratosError(code, err.message, { details: { decisionId: id, ...details } });
}
// wireQuestion is the question as the host takes it: a choice's options
// by id.
function wireQuestion(q) {
    if (typeof q !== "object" || q === null || !["choice", "score", "verdict"].includes(q.kind)) {
        throw new TypeError("decision(): the question must be made by choice(), score() or verdict()");
    }
    switch (q.kind) {
        case "choice":
            return {
                kind: "choice",
                prompt: q.prompt,
                options: q.options.map((o) => (typeof o === "string" ? { id: o } : { id: o.id, ...(o.description === undefined ? {} : { description: o.description }) })),
            };
        case "score":
            return { kind: "score", prompt: q.prompt, min: q.min, max: q.max, ...(q.step === undefined ? {} : { step: q.step }) };
        case "verdict":
            return { kind: "verdict", prompt: q.prompt };
    }
}
const optionFields = ["provider", "model", "baseUrl", "samples", "retries", "timeoutMs", "temperature", "seed", "reasons", "signal"];
// checkOptions refuses what is not an options object and a signal that
// is not an AbortSignal; the host checks every other field.
function checkOptions(options) {
    if (options === undefined) {
        return {};
    }
    if (typeof options !== "object" || options === null || Array.isArray(options)) {
        throw new TypeError("decision(): options must be an object");
    }
    if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
        throw new TypeError("decision(): options.signal must be an AbortSignal");
    }
    const unknown = Object.keys(options).filter((k) => !optionFields.includes(k));
    if (unknown.length > 0) {
        throw new TypeError(`decision(): unknown option ${unknown.map((k) => `"${k}"`).join(", ")} (known: ${optionFields.join(", ")})`);
    }
    const copy = {};
    for (const [k, v] of Object.entries(options)) {
        if (v !== undefined) {
            copy[k] = v;
        }
    }
    return copy;
}
// answerOf is the host's result in the question's own terms: a choice's
// option as the workflow gave it.
function answerOf(q, r, id) {
    let answer = r.answer;
    if (q.kind === "choice") {
        answer = q.options.find((o) => optionId(o) === r.answer);
        if (answer === undefined) {
            throw new StratosError("internal", `decision ${id}: the answer ${JSON.stringify(r.answer)} is none of the choice's options`, { details: { decisionId: id } });
        }
    }
    return Object.freeze({
        answer,
        confidence: r.confidence,
        basis: r.basis,
        samples: r.samples,
        ...(r.reasons === undefined ? {} : { reasons: Object.freeze([...r.reasons]) }),
    });
}
