import { StratosError } from "./errors.js";
/** The codes of agent errors: one per class below (configuration errors also prompt_file and unscripted_agent; execution errors also internal and protocol). */
export type AgentErrorCode = "configuration" | "prompt_file" | "unscripted_agent" | "template_variable_missing" | "initialization" | "authentication" | "model_unavailable" | "harness_unavailable" | "execution" | "internal" | "protocol" | "concurrent_use" | "admission" | "structured_output" | "hook_failed";
/** The base class of agent errors; `agent` names the agent object (its configId or "agent #n"). */
export declare class AgentError<C extends AgentErrorCode = AgentErrorCode> extends StratosError<C> {
    readonly agent: string;
    constructor(code: C, agent: string, message: string, options?: {
        cause?: unknown;
        details?: Record<string, unknown>;
    });
}
/** Options of agent error constructors; code overrides the class's own (prompt_file is a configuration error). */
export interface AgentErrorOptions<C extends AgentErrorCode = AgentErrorCode> {
    cause?: unknown;
    details?: Record<string, unknown>;
    code?: C;
}
declare const AgentConfigurationError_base: {
    new (agent: string, message: string, options?: AgentErrorOptions<"configuration" | "prompt_file" | "unscripted_agent"> | undefined): {
        name: string;
        message: string;
        stack?: string;
        cause?: unknown;
        readonly code: "configuration" | "prompt_file" | "unscripted_agent";
        readonly details: Record<string, unknown>;
        readonly agent: string;
    };
    captureStackTrace(targetObject: object, constructorOpt?: Function): void;
    prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;
    stackTraceLimit: number;
};
/**
 * Invalid or unknown configuration: configId, MCP server, tool name, effort, harness, prompt file (codes configuration,
 * prompt_file), or, in a `stratos test` case, an agent the case does not put on the test harness (code unscripted_agent).
 */
export declare class AgentConfigurationError extends AgentConfigurationError_base {
}
declare const TemplateVariableMissingError_base: {
    new (agent: string, message: string, options?: AgentErrorOptions<"template_variable_missing"> | undefined): {
        name: string;
        message: string;
        stack?: string;
        cause?: unknown;
        readonly code: "template_variable_missing";
        readonly details: Record<string, unknown>;
        readonly agent: string;
    };
    captureStackTrace(targetObject: object, constructorOpt?: Function): void;
    prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;
    stackTraceLimit: number;
};
/** A template uses a variable nobody supplied (code template_variable_missing); details.variable names it. */
export declare class TemplateVariableMissingError extends TemplateVariableMissingError_base {
}
declare const AgentInitializationError_base: {
    new (agent: string, message: string, options?: AgentErrorOptions<"initialization"> | undefined): {
        name: string;
        message: string;
        stack?: string;
        cause?: unknown;
        readonly code: "initialization";
        readonly details: Record<string, unknown>;
        readonly agent: string;
    };
    captureStackTrace(targetObject: object, constructorOpt?: Function): void;
    prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;
    stackTraceLimit: number;
};
/** The harness could not start the session (code initialization); the next execute() tries again. */
export declare class AgentInitializationError extends AgentInitializationError_base {
}
declare const AgentAuthenticationError_base: {
    new (agent: string, message: string, options?: AgentErrorOptions<"authentication"> | undefined): {
        name: string;
        message: string;
        stack?: string;
        cause?: unknown;
        readonly code: "authentication";
        readonly details: Record<string, unknown>;
        readonly agent: string;
    };
    captureStackTrace(targetObject: object, constructorOpt?: Function): void;
    prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;
    stackTraceLimit: number;
};
/** The harness has no usable credentials (code authentication). */
export declare class AgentAuthenticationError extends AgentAuthenticationError_base {
}
declare const ModelUnavailableError_base: {
    new (agent: string, message: string, options?: AgentErrorOptions<"model_unavailable"> | undefined): {
        name: string;
        message: string;
        stack?: string;
        cause?: unknown;
        readonly code: "model_unavailable";
        readonly details: Record<string, unknown>;
        readonly agent: string;
    };
    captureStackTrace(targetObject: object, constructorOpt?: Function): void;
    prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;
    stackTraceLimit: number;
};
/** The model cannot be used through the harness (code model_unavailable). */
export declare class ModelUnavailableError extends ModelUnavailableError_base {
}
declare const HarnessUnavailableError_base: {
    new (agent: string, message: string, options?: AgentErrorOptions<"harness_unavailable"> | undefined): {
        name: string;
        message: string;
        stack?: string;
        cause?: unknown;
        readonly code: "harness_unavailable";
        readonly details: Record<string, unknown>;
        readonly agent: string;
    };
    captureStackTrace(targetObject: object, constructorOpt?: Function): void;
    prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;
    stackTraceLimit: number;
};
/** The harness is not installed or not available in this version (code harness_unavailable). */
export declare class HarnessUnavailableError extends HarnessUnavailableError_base {
}
declare const AgentExecutionError_base: {
    new (agent: string, message: string, options?: AgentErrorOptions<"execution" | "internal" | "protocol"> | undefined): {
        name: string;
        message: string;
        stack?: string;
        cause?: unknown;
        readonly code: "execution" | "internal" | "protocol";
        readonly details: Record<string, unknown>;
        readonly agent: string;
    };
    captureStackTrace(targetObject: object, constructorOpt?: Function): void;
    prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;
    stackTraceLimit: number;
};
/** The harness failed while executing the prompt (code execution); the conversation stays usable. */
export declare class AgentExecutionError extends AgentExecutionError_base {
}
declare const ConcurrentUseError_base: {
    new (agent: string, message: string, options?: AgentErrorOptions<"concurrent_use"> | undefined): {
        name: string;
        message: string;
        stack?: string;
        cause?: unknown;
        readonly code: "concurrent_use";
        readonly details: Record<string, unknown>;
        readonly agent: string;
    };
    captureStackTrace(targetObject: object, constructorOpt?: Function): void;
    prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;
    stackTraceLimit: number;
};
/** execute() while the same agent object is executing (code concurrent_use); the running call is untouched. */
export declare class ConcurrentUseError extends ConcurrentUseError_base {
}
declare const AdmissionError_base: {
    new (agent: string, message: string, options?: AgentErrorOptions<"admission"> | undefined): {
        name: string;
        message: string;
        stack?: string;
        cause?: unknown;
        readonly code: "admission";
        readonly details: Record<string, unknown>;
        readonly agent: string;
    };
    captureStackTrace(targetObject: object, constructorOpt?: Function): void;
    prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;
    stackTraceLimit: number;
};
/** agents.maxOutstanding calls are already running or queued in this execution (code admission). */
export declare class AdmissionError extends AdmissionError_base {
}
declare const StructuredOutputError_base: {
    new (agent: string, message: string, options?: AgentErrorOptions<"structured_output"> | undefined): {
        name: string;
        message: string;
        stack?: string;
        cause?: unknown;
        readonly code: "structured_output";
        readonly details: Record<string, unknown>;
        readonly agent: string;
    };
    captureStackTrace(targetObject: object, constructorOpt?: Function): void;
    prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;
    stackTraceLimit: number;
};
/** The output does not match the agent's outputSchema (code structured_output). */
export declare class StructuredOutputError extends StructuredOutputError_base {
}
declare const AgentHookError_base: {
    new (agent: string, message: string, options?: AgentErrorOptions<"hook_failed"> | undefined): {
        name: string;
        message: string;
        stack?: string;
        cause?: unknown;
        readonly code: "hook_failed";
        readonly details: Record<string, unknown>;
        readonly agent: string;
    };
    captureStackTrace(targetObject: object, constructorOpt?: Function): void;
    prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;
    stackTraceLimit: number;
};
/** An author hook threw or rejected (code hook_failed); `cause` is what it threw. */
export declare class AgentHookError extends AgentHookError_base {
}
/**
 * Every agent error class. Narrow on `code`:
 * `if (err instanceof AgentError) switch (err.code) { case "structured_output": … }`.
 */
export type AnyAgentError = AgentConfigurationError | TemplateVariableMissingError | AgentInitializationError | AgentAuthenticationError | ModelUnavailableError | HarnessUnavailableError | AgentExecutionError | ConcurrentUseError | AdmissionError | StructuredOutputError | AgentHookError;
export {};
