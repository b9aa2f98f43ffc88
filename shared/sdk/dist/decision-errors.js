// The typed errors of decisions. A failed decision(...) rejects with one of
// these (or CancelledError / ContextClosedError from errors.ts); `code` is
// the agent host's stable decision error code.
import { StratosError } from "./errors.js";
/** The base class of decision errors; `decisionId` names the decision ("<executionId>/decision-<n>"). */
export class DecisionError extends StratosError {
    decisionId;
    constructor(code, decisionId, message, options) {
        super(code, message, { cause: options?.cause, details: { decisionId, ...options?.details } });
        this.name = "DecisionError";
        this.decisionId = decisionId;
    }
}
function decisionErrorClass(name, code) {
    const cls = class extends DecisionError {
        constructor(decisionId, message, options) {
            super(code, decisionId, message, options);
            this.name = name;
        }
    };
    Object.defineProperty(cls, "name", { value: name });
    return cls;
}
/** A bad configuration field (named with its layer), no model, an unknown provider, an invalid endpoint (code decision_configuration). */
export const DecisionConfigurationError = decisionErrorClass("DecisionConfigurationError", "decision_configuration");
/** The endpoint did not answer, or answered with an error or not the backend's reply (code decision_endpoint). */
export const DecisionEndpointError = decisionErrorClass("DecisionEndpointError", "decision_endpoint");
/** The model is not installed, is a cloud entry, or cannot complete (code decision_model_unavailable). */
export const DecisionModelUnavailableError = decisionErrorClass("DecisionModelUnavailableError", "decision_model_unavailable");
/** Every attempt's answer failed the question's validation (code decision_invalid_answer); details.attempts keeps them. */
export const DecisionInvalidAnswerError = decisionErrorClass("DecisionInvalidAnswerError", "decision_invalid_answer");
/** The decision took longer than its timeoutMs (code decision_timeout). */
export const DecisionTimeoutError = decisionErrorClass("DecisionTimeoutError", "decision_timeout");
/** decisions.maxOutstanding decisions are already running or waiting in this run (code decision_admission). */
export const DecisionAdmissionError = decisionErrorClass("DecisionAdmissionError", "decision_admission");
const byCode = {
    decision_configuration: (id, m, details) => new DecisionConfigurationError(id, m, { details }),
    decision_endpoint: (id, m, details) => new DecisionEndpointError(id, m, { details }),
    decision_model_unavailable: (id, m, details) => new DecisionModelUnavailableError(id, m, { details }),
    decision_invalid_answer: (id, m, details) => new DecisionInvalidAnswerError(id, m, { details }),
    decision_timeout: (id, m, details) => new DecisionTimeoutError(id, m, { details }),
    decision_admission: (id, m, details) => new DecisionAdmissionError(id, m, { details }),
};
/** The typed error of a decision error code, or undefined for another code. @internal */
export function decisionErrorFor(code, decisionId, message, details) {
    return Object.hasOwn(byCode, code) ? byCode[code](decisionId, message, details) : undefined;
}
