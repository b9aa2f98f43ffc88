// Decisions: small, typed judgements that steer a workflow, answered by a
// model directly (no harness, no tools, no conversation). The builders
// (choice, score, verdict) are pure: they return frozen question objects
// and execute nothing. decision(question, options) asks the agent host
// (decision.ask), which resolves the configuration, calls the model and
// validates the answer; this side maps the answer back to the question's
// own values, cancels through `signal` and the run, and journals the
// result so that a resumed run does not ask again. The design is in the
// repository's docs/design/decision.md.
import { getContext, type ExecutionContext } from "./context.js";
import { CancelledError, ContextClosedError, StratosError, toError } from "./errors.js";
import { agentHostFor, HostError } from "./agent-host.js";
import { Methods, type DecisionConfig, type DecisionParams, type DecisionResult, type Question as WireQuestion } from "./agent-protocol.js";
import { decisionErrorFor } from "./decision-errors.js";
import { inputHash } from "./journal.js";

/** An option of a choice: a string (its own id), or an object with an id (and anything else the workflow wants back). */
export type ChoiceOption = string | { readonly id: string; readonly description?: string };

/** A choice among options; the answer is one of the options, as given. */
export interface ChoiceQuestion<O extends ChoiceOption = ChoiceOption> {
  readonly kind: "choice";
  readonly prompt: string;
  readonly options: readonly O[];
}

/** A score in a range; the answer is a number from min to max (min plus whole steps, with step). */
export interface ScoreQuestion {
  readonly kind: "score";
  readonly prompt: string;
  readonly min: number;
  readonly max: number;
  readonly step?: number;
}

/** A yes/no/unsure judgement. */
export interface VerdictQuestion {
  readonly kind: "verdict";
  readonly prompt: string;
}

/** Every question a decision can ask. */
export type Question = ChoiceQuestion | ScoreQuestion | VerdictQuestion;

/** A verdict's answers: "unsure" when the information given does not settle it. */
export type Verdict = "yes" | "no" | "unsure";

/** The answer type of question type Q. */
export type AnswerOf<Q extends Question> = Q extends ChoiceQuestion<infer O> ? O : Q extends ScoreQuestion ? number : Verdict;

/** What a decision resolves to. */
export interface Decision<A> {
  readonly answer: A;
  /**
   * From 0 to 1: the share of samples that gave the answer (basis
   * "agreement"), or the probability the model gave the answer's tokens,
   * averaged over the samples (basis "logprobs", where the endpoint reports
   * log-probabilities).
   */
  readonly confidence: number;
  /** What confidence is: the samples' agreement, or the answer tokens' probability ("logprobs"). */
  readonly basis: "agreement" | "logprobs";
  /** How many answers were asked for. */
  readonly samples: number;
  /** With options.reasons: the model's reasons, one per sample that gave the answer. */
  readonly reasons?: readonly string[];
}

/**
 * The options of decision(): each overrides the invocation's decision
 * overrides and workflow.yaml's decision section, field by field.
 */
export interface DecisionOptions {
  /** The backend: "ollama", "openai" (or a compatible endpoint), "anthropic"; implied by an openai/… or anthropic/… model. */
  provider?: string;
  /** The model: an installed Ollama name ("qwen3:8b"), or a catalog ID ("openai/gpt-4.1-mini"). */
  model?: string;
  /** The endpoint; it may carry a path prefix. Default: for Ollama OLLAMA_HOST, else http://127.0.0.1:11434; else the provider's own. */
  baseUrl?: string;
  /** How many answers to ask for (1–15); the majority is the answer. Default 1. */
  samples?: number;
  /** How many times an invalid answer is asked again, per sample (0–10). Default 2. */
  retries?: number;
  /** The whole decision's time limit in milliseconds. Default 120000. */
  timeoutMs?: number;
  /** Sent to the model when set (0–2). */
  temperature?: number;
  /** Sent to the model when set; sample i gets seed + i - 1. */
  seed?: number;
  /** Ask for the model's reasons beside the answer. Default false. */
  reasons?: boolean;
  /** Cancels the decision when it aborts (CancelledError). */
  signal?: AbortSignal;
}

const maxOptions = 64;
const maxOptionId = 200;

/**
 * A choice among options, offered to the model in the given order. The
 * answer is the option chosen, as given: choice("…", ["red", "blue"])
 * answers "red" | "blue"; options may be objects with an id.
 */
export function choice<const O extends readonly ChoiceOption[]>(prompt: string, options: O): ChoiceQuestion<O[number]> {
  checkPrompt("choice", prompt);
  if (!Array.isArray(options) || options.length < 2 || options.length > maxOptions) {
    throw new TypeError(`choice(): options must be an array of 2 to ${maxOptions} options`);
  }
  const seen = new Set<string>();
  const copies = options.map((o: ChoiceOption, i: number) => {
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
  return Object.freeze({ kind: "choice", prompt, options: Object.freeze(copies) }) as ChoiceQuestion<O[number]>;
}

/** A score from min to max (with step: min plus a whole number of steps); the answer is a number. */
export function score(prompt: string, range: { min: number; max: number; step?: number }): ScoreQuestion {
  checkPrompt("score", prompt);
  const { min, max, step } = range ?? ({} as { min: number; max: number; step?: number });
  if (!Number.isFinite(min) || !Number.isFinite(max) || !(min < max)) {
    throw new TypeError("score(): min and max must be finite numbers with min < max");
  }
  if (step !== undefined && !(Number.isFinite(step) && step > 0 && step <= max - min)) {
    throw new TypeError("score(): step must be a positive number no larger than max - min");
  }
  return Object.freeze(step === undefined ? { kind: "score", prompt, min, max } : { kind: "score", prompt, min, max, step });
}

/** A yes/no/unsure judgement; the answer is "yes", "no" or "unsure". */
export function verdict(prompt: string): VerdictQuestion {
  checkPrompt("verdict", prompt);
  return Object.freeze({ kind: "verdict", prompt });
}

function checkPrompt(builder: string, prompt: unknown): void {
  if (typeof prompt !== "string" || prompt.trim() === "") {
    throw new TypeError(`${builder}(): the prompt must be a non-empty string`);
  }
}

function optionId(o: ChoiceOption): unknown {
  return typeof o === "string" ? o : typeof o === "object" && o !== null ? o.id : undefined;
}

const counters = new WeakMap<ExecutionContext, number>();

/**
 * Asks question of the model the decision configuration names (call
 * options > invocation overrides > workflow.yaml) and resolves to the
 * validated answer, typed by the question. Rejects with a DecisionError
 * (configuration, endpoint, model, invalid answer, timeout, admission),
 * CancelledError when signal aborts or the run is cancelled, and throws
 * NoExecutionContextError outside a running workflow.
 */
export async function decision<Q extends Question>(question: Q, options?: DecisionOptions): Promise<Decision<AnswerOf<Q>>> {
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
    ...(yaml === undefined || yaml === null ? {} : { yaml: yaml as DecisionConfig }),
    ...(overrides === undefined ? {} : { overrides: overrides as DecisionConfig }),
    ...(Object.keys(call).length === 0 ? {} : { call: call as DecisionConfig }),
  };
  const phase = ctx.phase(); // not hashed (journalled): renaming a phase does not change what resuming replays
  const params: DecisionParams = {
    decisionId: `${ctx.executionId}/decision-${n}`,
    executionId: ctx.executionId,
    workflow: { name: ctx.workflow, dir: entry?.dir ?? "" },
    question: wire,
    config,
    ...(phase === "" ? {} : { phase }),
  };
  const result = await journalled(ctx, params, signal);
  return answerOf(question, result, params.decisionId) as Decision<AnswerOf<Q>>;
}

// journalled asks, or answers from the journal when the execution being
// resumed asked the same at this place and got an answer.
async function journalled(ctx: ExecutionContext, params: DecisionParams, signal: AbortSignal | undefined): Promise<DecisionResult> {
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
  } catch (err) {
    journal.recordDecision(ctx.journalPath, place, hash, undefined, toError(err));
    throw err;
  }
}

// ask sends decision.ask; an abort of signal or of the execution sends
// decision.cancel, which the host may see before or after the ask.
async function ask(ctx: ExecutionContext, params: DecisionParams, signal: AbortSignal | undefined): Promise<DecisionResult> {
  if (signal?.aborted === true) {
    throw new CancelledError(`decision ${params.decisionId} was cancelled before it was asked`, { cause: signal.reason });
  }
  const host = agentHostFor(ctx);
  const cancel = () => host.notify(Methods.decisionCancel, { decisionId: params.decisionId });
  signal?.addEventListener("abort", cancel, { once: true });
  ctx.signal.addEventListener("abort", cancel, { once: true });
  try {
    await host.ready;
    return (await host.call(Methods.decisionAsk, params)) as DecisionResult;
  } catch (err) {
    throw hostError(ctx, params.decisionId, err, signal);
  } finally {
    signal?.removeEventListener("abort", cancel);
    ctx.signal.removeEventListener("abort", cancel);
  }
}

// hostError maps a failed decision.ask to the SDK's typed error.
function hostError(ctx: ExecutionContext, id: string, err: unknown, signal: AbortSignal | undefined): Error {
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
function wireQuestion(q: Question): WireQuestion {
  if (typeof q !== "object" || q === null || !["choice", "score", "verdict"].includes((q as { kind?: unknown }).kind as string)) {
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
function checkOptions(options: DecisionOptions | undefined): DecisionOptions {
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
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(options)) {
    if (v !== undefined) {
      copy[k] = v;
    }
  }
  return copy as DecisionOptions;
}

// answerOf is the host's result in the question's own terms: a choice's
// option as the workflow gave it.
function answerOf(q: Question, r: DecisionResult, id: string): Decision<unknown> {
  let answer: unknown = r.answer;
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
