import { StratosError } from "./errors.js";
/** The codes of direct MCP client errors: one per class below. */
export type McpErrorCode = "mcp_tool_error" | "mcp_configuration" | "mcp_connection" | "mcp_timeout" | "mcp_protocol";
/** The base class of direct MCP client errors; `server` is the mcp.servers key. */
export declare class McpError<C extends McpErrorCode = McpErrorCode> extends StratosError<C> {
    readonly server: string;
    constructor(code: C, server: string, message: string, options?: {
        cause?: unknown;
        details?: Record<string, unknown>;
    });
}
/** A tool answered isError: true (code mcp_tool_error); its content is kept. */
export declare class McpToolError extends McpError<"mcp_tool_error"> {
    readonly tool: string;
    readonly content: readonly McpContent[];
    constructor(server: string, tool: string, content: McpContent[]);
}
/** The server is not declared or invalid, or a ${NAME} it references is unset (code mcp_configuration). */
export declare const McpConfigurationError: {
    new (server: string, message: string, options?: {
        cause?: unknown;
        details?: Record<string, unknown>;
    } | undefined): {
        name: string;
        message: string;
        stack?: string;
        cause?: unknown;
        readonly code: "mcp_configuration";
        readonly details: Record<string, unknown>;
        readonly server: string;
    };
    captureStackTrace(targetObject: object, constructorOpt?: Function): void;
    prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;
    stackTraceLimit: number;
};
export type McpConfigurationError = InstanceType<typeof McpConfigurationError>;
/** The server could not be started or reached, or the connection broke (code mcp_connection). */
export declare const McpConnectionError: {
    new (server: string, message: string, options?: {
        cause?: unknown;
        details?: Record<string, unknown>;
    } | undefined): {
        name: string;
        message: string;
        stack?: string;
        cause?: unknown;
        readonly code: "mcp_connection";
        readonly details: Record<string, unknown>;
        readonly server: string;
    };
    captureStackTrace(targetObject: object, constructorOpt?: Function): void;
    prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;
    stackTraceLimit: number;
};
export type McpConnectionError = InstanceType<typeof McpConnectionError>;
/** A request took longer than five minutes; it is not retried (code mcp_timeout). */
export declare const McpTimeoutError: {
    new (server: string, message: string, options?: {
        cause?: unknown;
        details?: Record<string, unknown>;
    } | undefined): {
        name: string;
        message: string;
        stack?: string;
        cause?: unknown;
        readonly code: "mcp_timeout";
        readonly details: Record<string, unknown>;
        readonly server: string;
    };
    captureStackTrace(targetObject: object, constructorOpt?: Function): void;
    prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;
    stackTraceLimit: number;
};
export type McpTimeoutError = InstanceType<typeof McpTimeoutError>;
/** The server rejected the request: unknown tool, invalid arguments, ... (code mcp_protocol). */
export declare const McpProtocolError: {
    new (server: string, message: string, options?: {
        cause?: unknown;
        details?: Record<string, unknown>;
    } | undefined): {
        name: string;
        message: string;
        stack?: string;
        cause?: unknown;
        readonly code: "mcp_protocol";
        readonly details: Record<string, unknown>;
        readonly server: string;
    };
    captureStackTrace(targetObject: object, constructorOpt?: Function): void;
    prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;
    stackTraceLimit: number;
};
export type McpProtocolError = InstanceType<typeof McpProtocolError>;
/** One content block of a tool result (text, image, resource, ...), as the server sent it. */
export type McpContent = {
    type: string;
    text?: string;
} & Record<string, unknown>;
/** The result of a tool without an output schema. */
export interface McpToolResult {
    /** The content blocks. */
    content: McpContent[];
    /** The text blocks joined by newlines ("" when there are none). */
    text: string;
    /** Structured content, when the server sent some. */
    structuredContent?: unknown;
}
