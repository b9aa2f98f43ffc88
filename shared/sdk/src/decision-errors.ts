// The typed errors of decisions. A failed decision(...) rejects with one of
// these (or CancelledError / ContextClosedError from errors.ts); `code` is
// the agent host's stable decision error code.
import { StratosError } from "./errors.js";
import type { DecisionErrorCode } from "./agent-protocol.js";

export type { DecisionErrorCode };

/** The base class of decision errors; `decisionId` names the decision ("<executionId>/decision-<n>"). */
export class DecisionError<C extends DecisionErrorCode = DecisionErrorCode> extends StratosError<C> {
  readonly decisionId: string;
  constructor(code: C, decisionId: string, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(code, message, { cause: options?.cause, details: { decisionId, ...options?.details } });
    this.name = "DecisionError";
    this.decisionId = decisionId;
  }
}

function decisionErrorClass<C extends DecisionErrorCode>(name: string, code: C) {
  const cls = class extends DecisionError<C> {
    constructor(decisionId: string, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
      super(code, decisionId, message, options);
      this.name = name;
    }
  };
  Object.defineProperty(cls, "name", { value: name });
  return cls;
}

/** A bad configuration field (named with its layer), no model, an unknown provider, an invalid endpoint (code decision_configuration). */
export const DecisionConfigurationError = decisionErrorClass("DecisionConfigurationError", "decision_configuration");
export type DecisionConfigurationError = InstanceType<typeof DecisionConfigurationError>;
/** The endpoint did not answer, or answered with an error or not the backend's reply (code decision_endpoint). */
export const DecisionEndpointError = decisionErrorClass("DecisionEndpointError", "decision_endpoint");
export type DecisionEndpointError = InstanceType<typeof DecisionEndpointError>;
/** The model is not installed, is a cloud entry, or cannot complete (code decision_model_unavailable). */
export const DecisionModelUnavailableError = decisionErrorClass("DecisionModelUnavailableError", "decision_model_unavailable");
export type DecisionModelUnavailableError = InstanceType<typeof DecisionModelUnavailableError>;
/** Every attempt's answer failed the question's validation (code decision_invalid_answer); details.attempts keeps them. */
export const DecisionInvalidAnswerError = decisionErrorClass("DecisionInvalidAnswerError", "decision_invalid_answer");
export type DecisionInvalidAnswerError = InstanceType<typeof DecisionInvalidAnswerError>;
/** The decision took longer than its timeoutMs (code decision_timeout). */
export const DecisionTimeoutError = decisionErrorClass("DecisionTimeoutError", "decision_timeout");
export type DecisionTimeoutError = InstanceType<typeof DecisionTimeoutError>;
/** decisions.maxOutstanding decisions are already running or waiting in this run (code decision_admission). */
export const DecisionAdmissionError = decisionErrorClass("DecisionAdmissionError", "decision_admission");
export type DecisionAdmissionError = InstanceType<typeof DecisionAdmissionError>;

/** Every decision error class. Narrow on `code`. */
export type AnyDecisionError =
  | DecisionConfigurationError
  | DecisionEndpointError
  | DecisionModelUnavailableError
  | DecisionInvalidAnswerError
  | DecisionTimeoutError
  | DecisionAdmissionError;

const byCode: Record<DecisionErrorCode, (id: string, message: string, details: Record<string, unknown>) => DecisionError> = {
  decision_configuration: (id, m, details) => new DecisionConfigurationError(id, m, { details }),
  decision_endpoint: (id, m, details) => new DecisionEndpointError(id, m, { details }),
  decision_model_unavailable: (id, m, details) => new DecisionModelUnavailableError(id, m, { details }),
  decision_invalid_answer: (id, m, details) => new DecisionInvalidAnswerError(id, m, { details }),
  decision_timeout: (id, m, details) => new DecisionTimeoutError(id, m, { details }),
  decision_admission: (id, m, details) => new DecisionAdmissionError(id, m, { details }),
};

/** The typed error of a decision error code, or undefined for another code. @internal */
export function decisionErrorFor(code: string, decisionId: string, message: string, details: Record<string, unknown>): DecisionError | undefined {
  return Object.hasOwn(byCode, code) ? byCode[code as DecisionErrorCode](decisionId, message, details) : undefined;
}
