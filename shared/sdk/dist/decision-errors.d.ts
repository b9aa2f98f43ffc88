import { StratosError } from "./errors.js";
import type { DecisionErrorCode } from "./agent-protocol.js";
export type { DecisionErrorCode };
/** The base class of decision errors; `decisionId` names the decision ("<executionId>/decision-<n>"). */
export declare class DecisionError<C extends DecisionErrorCode = DecisionErrorCode> extends StratosError<C> {
    readonly decisionId: string;
    constructor(code: C, decisionId: string, message: string, options?: {
        cause?: unknown;
        details?: Record<string, unknown>;
    });
}
/** A bad configuration field (named with its layer), no model, an unknown provider, an invalid endpoint (code decision_configuration). */
export declare const DecisionConfigurationError: {
    new (decisionId: string, message: string, options?: {
        cause?: unknown;
        details?: Record<string, unknown>;
    } | undefined): {
        name: string;
        message: string;
        stack?: string;
        cause?: unknown;
        readonly code: "decision_configuration";
        readonly details: Record<string, unknown>;
        readonly decisionId: string;
    };
    captureStackTrace(targetObject: object, constructorOpt?: Function): void;
    prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;
    stackTraceLimit: number;
};
export type DecisionConfigurationError = InstanceType<typeof DecisionConfigurationError>;
/** The endpoint did not answer, or answered with an error or not the backend's reply (code decision_endpoint). */
export declare const DecisionEndpointError: {
    new (decisionId: string, message: string, options?: {
        cause?: unknown;
        details?: Record<string, unknown>;
    } | undefined): {
        name: string;
        message: string;
        stack?: string;
        cause?: unknown;
        readonly code: "decision_endpoint";
        readonly details: Record<string, unknown>;
        readonly decisionId: string;
    };
    captureStackTrace(targetObject: object, constructorOpt?: Function): void;
    prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;
    stackTraceLimit: number;
};
export type DecisionEndpointError = InstanceType<typeof DecisionEndpointError>;
/** The model is not installed, is a cloud entry, or cannot complete (code decision_model_unavailable). */
export declare const DecisionModelUnavailableError: {
    new (decisionId: string, message: string, options?: {
        cause?: unknown;
        details?: Record<string, unknown>;
    } | undefined): {
        name: string;
        message: string;
        stack?: string;
        cause?: unknown;
        readonly code: "decision_model_unavailable";
        readonly details: Record<string, unknown>;
        readonly decisionId: string;
    };
    captureStackTrace(targetObject: object, constructorOpt?: Function): void;
    prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;
    stackTraceLimit: number;
};
export type DecisionModelUnavailableError = InstanceType<typeof DecisionModelUnavailableError>;
/** Every attempt's answer failed the question's validation (code decision_invalid_answer); details.attempts keeps them. */
export declare const DecisionInvalidAnswerError: {
    new (decisionId: string, message: string, options?: {
        cause?: unknown;
        details?: Record<string, unknown>;
    } | undefined): {
        name: string;
        message: string;
        stack?: string;
        cause?: unknown;
        readonly code: "decision_invalid_answer";
        readonly details: Record<string, unknown>;
        readonly decisionId: string;
    };
    captureStackTrace(targetObject: object, constructorOpt?: Function): void;
    prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;
    stackTraceLimit: number;
};
export type DecisionInvalidAnswerError = InstanceType<typeof DecisionInvalidAnswerError>;
/** The decision took longer than its timeoutMs (code decision_timeout). */
export declare const DecisionTimeoutError: {
    new (decisionId: string, message: string, options?: {
        cause?: unknown;
        details?: Record<string, unknown>;
    } | undefined): {
        name: string;
        message: string;
        stack?: string;
        cause?: unknown;
        readonly code: "decision_timeout";
        readonly details: Record<string, unknown>;
        readonly decisionId: string;
    };
    captureStackTrace(targetObject: object, constructorOpt?: Function): void;
    prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;
    stackTraceLimit: number;
};
export type DecisionTimeoutError = InstanceType<typeof DecisionTimeoutError>;
/** decisions.maxOutstanding decisions are already running or waiting in this run (code decision_admission). */
export declare const DecisionAdmissionError: {
    new (decisionId: string, message: string, options?: {
        cause?: unknown;
        details?: Record<string, unknown>;
    } | undefined): {
        name: string;
        message: string;
        stack?: string;
        cause?: unknown;
        readonly code: "decision_admission";
        readonly details: Record<string, unknown>;
        readonly decisionId: string;
    };
    captureStackTrace(targetObject: object, constructorOpt?: Function): void;
    prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;
    stackTraceLimit: number;
};
export type DecisionAdmissionError = InstanceType<typeof DecisionAdmissionError>;
/** Every decision error class. Narrow on `code`. */
export type AnyDecisionError = DecisionConfigurationError | DecisionEndpointError | DecisionModelUnavailableError | DecisionInvalidAnswerError | DecisionTimeoutError | DecisionAdmissionError;
