/** An option of a choice: a string (its own id), or an object with an id (and anything else the workflow wants back). */
export type ChoiceOption = string | {
    readonly id: string;
    readonly description?: string;
};
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
/**
 * A choice among options, offered to the model in the given order. The
 * answer is the option chosen, as given: choice("…", ["red", "blue"])
 * answers "red" | "blue"; options may be objects with an id.
 */
export declare function choice<const O extends readonly ChoiceOption[]>(prompt: string, options: O): ChoiceQuestion<O[number]>;
/** A score from min to max (with step: min plus a whole number of steps); the answer is a number. */
export declare function score(prompt: string, range: {
    min: number;
    max: number;
    step?: number;
}): ScoreQuestion;
/** A yes/no/unsure judgement; the answer is "yes", "no" or "unsure". */
export declare function verdict(prompt: string): VerdictQuestion;
/**
 * Asks question of the model the decision configuration names (call
 * options > invocation overrides > workflow.yaml) and resolves to the
 * validated answer, typed by the question. Rejects with a DecisionError
 * (configuration, endpoint, model, invalid answer, timeout, admission),
 * CancelledError when signal aborts or the run is cancelled, and throws
 * NoExecutionContextError outside a running workflow.
 */
export declare function decision<Q extends Question>(question: Q, options?: DecisionOptions): Promise<Decision<AnswerOf<Q>>>;
