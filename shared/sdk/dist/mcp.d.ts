import { StratosError } from "./errors.js";
/** The codes of direct MCP client errors: one per class below. */
export type McpErrorCode = "mcp_tool_error" | "mcp_configuration" | "mcp_connection" | "mcp_timeout" | "mcp_protocol" | "mcp_resource_too_large";
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
/**
 * A resource read holds more bytes than its limit (code
 * mcp_resource_too_large): `uri`, `limit` (readResource's maxBytes) and,
 * when the host measured it, `size`.
 */
export declare class McpResourceTooLargeError extends McpError<"mcp_resource_too_large"> {
    readonly uri: string;
    readonly limit: number;
    constructor(server: string, uri: string, limit: number, message: string, options?: {
        cause?: unknown;
        details?: Record<string, unknown>;
    });
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
/** The server answered with a JSON-RPC error: an unknown resource or prompt, or for some servers an unknown tool or invalid arguments (most answer those with a tool error: McpToolError) (code mcp_protocol). */
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
/** A resource link in a tool result (content type "resource_link"): read it with readResource. */
export type McpResourceLink = McpContent & {
    type: "resource_link";
    uri: string;
    name: string;
    title?: string;
    description?: string;
    mimeType?: string;
    size?: number;
};
/** The resource links among a tool result's content blocks, in order. */
export declare function resourceLinks(result: McpToolResult | readonly McpContent[]): McpResourceLink[];
/** One resource a server lists. */
export interface McpResource {
    uri: string;
    name: string;
    title?: string;
    description?: string;
    mimeType?: string;
    /** The raw size in bytes, when the server says. */
    size?: number;
}
/** One resource template a server lists: its expansions (URIs) are read with readResource. */
export interface McpResourceTemplate {
    /** An RFC 6570 URI template, such as "tracker://issues/{id}". */
    uriTemplate: string;
    name: string;
    title?: string;
    description?: string;
    mimeType?: string;
}
/** One part of a resource: text, or binary data as base64 (`Buffer.from(blob, "base64")`). */
export type McpResourceContents = {
    uri: string;
    mimeType?: string;
    text: string;
    blob?: never;
} | {
    uri: string;
    mimeType?: string;
    blob: string;
    text?: never;
};
/** A resource read. */
export interface McpResourceRead {
    /** Its parts, as the server sent them. */
    contents: McpResourceContents[];
    /** The text parts joined by newlines ("" when there are none). */
    text: string;
}
/** Options of readResource. */
export interface McpReadResourceOptions {
    /**
     * The most bytes the read may hold (text as UTF-8, blobs decoded,
     * summed); more rejects with McpResourceTooLargeError. Default 16 MiB,
     * at most 32 MiB.
     */
    maxBytes?: number;
}
/** One argument a prompt takes. */
export interface McpPromptArgument {
    name: string;
    title?: string;
    description?: string;
    required?: boolean;
}
/** One prompt a server lists. */
export interface McpPrompt {
    name: string;
    title?: string;
    description?: string;
    arguments?: McpPromptArgument[];
}
/** One message of a prompt. */
export interface McpPromptMessage {
    role: "user" | "assistant";
    /** One content block (text, image, resource, ...), as the server sent it. */
    content: McpContent;
}
/** A prompt with its arguments filled in. */
export interface McpPromptResult {
    description?: string;
    messages: McpPromptMessage[];
    /** The messages' text blocks joined by newlines ("" when there are none). */
    text: string;
}
/**
 * A server's resources and prompts, on the connection its tools use (every
 * generated wrapper has them). Lists are read to their last page (at most
 * 10,000 entries, more reject with McpProtocolError). Like tool calls, a
 * request takes at most five minutes and is not retried. Resource reads are
 * journaled as tool calls are (a resumed run gets a read that succeeded
 * from the journal); lists and prompts are not: a resumed run asks the
 * server again.
 */
export interface McpResourcesAndPrompts {
    /** Every resource the server lists, sorted by URI. */
    resources(): Promise<McpResource[]>;
    /** Every resource template the server lists, sorted by URI template. */
    resourceTemplates(): Promise<McpResourceTemplate[]>;
    /**
     * Reads a resource: by URI (listed, a template's expansion) or a tool
     * result's resource link (see resourceLinks). An unknown URI rejects with
     * McpProtocolError; a read over options.maxBytes with
     * McpResourceTooLargeError.
     */
    readResource(resource: string | McpResourceLink, options?: McpReadResourceOptions): Promise<McpResourceRead>;
    /** Every prompt the server lists, sorted by name. */
    prompts(): Promise<McpPrompt[]>;
    /** The prompt with its arguments filled in; an unknown prompt rejects with McpProtocolError. */
    getPrompt(name: string, args?: Record<string, string>): Promise<McpPromptResult>;
    /**
     * Subscribes to a resource (resources/subscribe): onUpdated is called
     * with its URI each time the server says it changed, until unsubscribe
     * or the execution's end. Subscribing again replaces onUpdated. A server
     * without subscriptions rejects with McpProtocolError.
     */
    subscribe(resource: string | McpResourceLink, onUpdated: (uri: string) => void): Promise<void>;
    /** Ends a subscription: no onUpdated call follows once it resolves. */
    unsubscribe(resource: string | McpResourceLink): Promise<void>;
}
/** A server's request for input in the middle of a tool call (elicitation/create, form mode). */
export interface McpElicitationRequest {
    /** The mcp.servers key. */
    server: string;
    /** What the server asks. */
    message: string;
    /** The form: a flat object schema whose properties are strings, numbers, booleans and enums. */
    requestedSchema: Record<string, unknown>;
}
/** A value of a form field. */
export type McpElicitationValue = string | number | boolean | string[];
/**
 * An elicitation handler's answer. Accepted content is checked against the
 * request's form before the server sees it: content that does not fit
 * fails the tool call with an McpProtocolError naming the field.
 */
export type McpElicitationAnswer = {
    action: "accept";
    content: Record<string, McpElicitationValue>;
} | {
    action: "decline";
} | {
    action: "cancel";
};
/** Options of a generated wrapper's factory (connect<Server>(options)). */
export interface McpConnectOptions {
    /**
     * Answers the server's requests for input (elicitation) in place of the
     * server's declared `elicitation` policy. It runs in the calling
     * execution's context. A handler that throws declines (the error is
     * written to stderr); one that has not answered within a minute is taken
     * as a decline. URL-mode requests are declined without calling it.
     */
    onElicitation?: (request: McpElicitationRequest) => McpElicitationAnswer | Promise<McpElicitationAnswer>;
    /**
     * The least severe level of the server's log messages to ask for (none
     * is asked without it: the server's default stands, often silence). Each
     * message becomes an mcp.log event of the run (its data cut to 8 KiB).
     */
    logLevel?: McpLogLevel;
    /** Called when the server says its list of resources changed (notifications/resources/list_changed). */
    onResourceListChanged?: () => void;
}
/** The log levels of the MCP protocol, least severe first. */
export type McpLogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";
