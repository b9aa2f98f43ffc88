// Direct MCP clients: what the wrappers Stratos generates for a workflow's
// MCP servers (generated/mcp/<server>.ts) call. The connection lives in the
// agent host (the Go MCP SDK), reached through the host protocol; this side
// owns the client's lifetime: it belongs to the calling execution and is
// closed with it, even when the execution fails.
import { contextStorage, getContext } from "./context.js";
import { agentHostFor, HostError } from "./agent-host.js";
import { Methods, } from "./agent-protocol.js";
import { StratosError, toError } from "./errors.js";
import { inputHash } from "./journal.js";
/** The base class of direct MCP client errors; `server` is the mcp.servers key. */
export class McpError extends StratosError {
    server;
    constructor(code, server, message, options) {
        super(code, message, { cause: options?.cause, details: { server, ...options?.details } });
        this.name = "McpError";
        this.server = server;
    }
}
/** A tool answered isError: true (code mcp_tool_error); its content is kept. */
export class McpToolError extends McpError {
    tool;
    content;
    constructor(server, tool, content) {
        const text = contentText(content);
        super("mcp_tool_error", server, `MCP server "${server}", tool "${tool}" failed: ${text || "(no message)"}`, { details: { tool, content } });
        this.name = "McpToolError";
        this.tool = tool;
        this.content = Object.freeze(content);
    }
}
/**
 * A resource read holds more bytes than its limit (code
 * mcp_resource_too_large): `uri`, `limit` (readResource's maxBytes) and,
 * when the host measured it, `size`.
 */
export class McpResourceTooLargeError extends McpError {
    uri;
    limit;
    constructor(server, uri, limit, message, options) {
        super("mcp_resource_too_large", server, message, { cause: options?.cause, details: { ...options?.details, uri, limit } });
        this.name = "McpResourceTooLargeError";
        this.uri = uri;
        this.limit = limit;
    }
}
function mcpErrorClass(name, code) {
    const cls = class extends McpError {
        constructor(server, message, options) {
            super(code, server, message, options);
            this.name = name;
        }
    };
    Object.defineProperty(cls, "name", { value: name });
    return cls;
}
/** The server is not declared or invalid, or a ${NAME} it references is unset (code mcp_configuration). */
export const McpConfigurationError = mcpErrorClass("McpConfigurationError", "mcp_configuration");
/** The server could not be started or reached, or the connection broke (code mcp_connection). */
export const McpConnectionError = mcpErrorClass("McpConnectionError", "mcp_connection");
/** A request took longer than five minutes; it is not retried (code mcp_timeout). */
export const McpTimeoutError = mcpErrorClass("McpTimeoutError", "mcp_timeout");
/** The server answered with a JSON-RPC error: an unknown resource or prompt, or for some servers an unknown tool or invalid arguments (most answer those with a tool error: McpToolError) (code mcp_protocol). */
export const McpProtocolError = mcpErrorClass("McpProtocolError", "mcp_protocol");
/** The resource links among a tool result's content blocks, in order. */
export function resourceLinks(result) {
    const content = Array.isArray(result) ? result : result.content;
    return content.filter((c) => c.type === "resource_link" && typeof c.uri === "string");
}
const logLevels = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
/**
 * The journal's name for a resource read among a server's tool calls: MCP
 * tool names have no "/", so no tool shares it.
 */
const readResourceEntry = "resources/read";
/** The most a readResource may allow (options.maxBytes). */
const maxResourceBytes = 32 << 20;
let nextClient = 0;
/**
 * Connects to a server the workflow declares and resolves once it is ready.
 * For generated wrappers only ("@stratoscli/stratos/generated"). @internal
 */
export async function connectMcpServer(ref, options) {
    const ctx = getContext(`MCP server "${ref.server}"`);
    const onElicitation = options?.onElicitation;
    if (onElicitation !== undefined && typeof onElicitation !== "function") {
        throw new McpConfigurationError(ref.server, `MCP server "${ref.server}": options.onElicitation must be a function, got ${typeof onElicitation}`);
    }
    const logLevel = options?.logLevel;
    if (logLevel !== undefined && !logLevels.includes(logLevel)) {
        throw new McpConfigurationError(ref.server, `MCP server "${ref.server}": options.logLevel must be one of ${logLevels.join(", ")}, got ${JSON.stringify(logLevel)}`);
    }
    const onResourceListChanged = options?.onResourceListChanged;
    if (onResourceListChanged !== undefined && typeof onResourceListChanged !== "function") {
        throw new McpConfigurationError(ref.server, `MCP server "${ref.server}": options.onResourceListChanged must be a function, got ${typeof onResourceListChanged}`);
    }
    const entry = ctx.host.workflows[ref.workflow];
    if (entry === undefined) {
        throw new McpConfigurationError(ref.server, `MCP server "${ref.server}": workflow "${ref.workflow}" is not in the runtime's workflow table`);
    }
    if (ctx.workflow !== ref.workflow) {
        throw new McpConfigurationError(ref.server, `MCP server "${ref.server}" belongs to workflow "${ref.workflow}"; workflow "${ctx.workflow}" cannot use its wrapper`);
    }
    const client = new DirectClient(ctx, ref.server, `mcp-${process.pid}-${++nextClient}`, entry.dir, options ?? {});
    // Registered before connecting: a connection that is still being made
    // when the execution ends is closed as well.
    ctx.register(client, `connecting to MCP server "${ref.server}"`);
    if (ctx.host.journal?.resuming === true) {
        // A resumed run connects at the first call the journal does not
        // answer: a server whose calls all replay is never started.
        return client;
    }
    try {
        await client.connect();
    }
    catch (err) {
        await client.close();
        throw err;
    }
    return client;
}
/**
 * The workflow's decision configuration as mcp.connect carries it: the
 * host answers the sampling requests of a server declared with
 * `sampling: decision` with it, workflow.yaml's section under the
 * invocation's overrides, as a decision() without options.
 */
function samplingDecision(ctx) {
    const yaml = ctx.host.workflows[ctx.workflow]?.config?.decision ?? undefined;
    const overrides = ctx.overrides.decision;
    const layers = {
        ...(yaml === undefined || yaml === null ? {} : { yaml: yaml }),
        ...(overrides === undefined ? {} : { overrides: overrides }),
    };
    return Object.keys(layers).length === 0 ? {} : { decision: layers };
}
class DirectClient {
    #ctx;
    #server;
    #id;
    #workflowDir;
    #options;
    #onElicitation;
    /** The subscribed resources' onUpdated, by URI. */
    #subscriptions = new Map();
    #host;
    #connecting;
    #closing;
    constructor(ctx, server, id, workflowDir, options) {
        this.#ctx = ctx;
        this.#server = server;
        this.#id = id;
        this.#workflowDir = workflowDir;
        this.#options = options;
        this.#onElicitation = options.onElicitation;
    }
    /** Connects, once: later calls share the first connection's outcome. */
    connect() {
        this.#connecting ??= this.#request(Methods.mcpConnect, {
            clientId: this.#id,
            executionId: this.#ctx.executionId,
            workflow: { name: this.#ctx.workflow, dir: this.#workflowDir },
            server: this.#server,
            ...(this.#onElicitation === undefined ? {} : { elicitation: true }),
            ...(this.#options.logLevel === undefined ? {} : { logLevel: this.#options.logLevel }),
            ...(this.#options.onResourceListChanged === undefined ? {} : { resourceListChanged: true }),
            ...samplingDecision(this.#ctx),
        });
        return this.#connecting;
    }
    /**
     * Answers the server's elicitation with the workflow's handler (the host
     * asks only clients connected with one). A rejection becomes an error
     * response: the host declines and writes why to stderr.
     */
    async handleElicitation(p) {
        const request = { server: this.#server, message: p.message, requestedSchema: p.requestedSchema ?? {} };
        const answer = await contextStorage().run(this.#ctx, async () => await this.#onElicitation(request));
        const action = answer?.action;
        if (action === "accept") {
            return { action, content: answer.content ?? {} };
        }
        // decline, cancel, or an action the host names in its error.
        return { action: String(action) };
    }
    /**
     * Passes a server's resource change on: to the subscription's onUpdated,
     * or to onResourceListChanged. They run in the execution's context; one
     * that throws has its error written to stderr (the server is not told).
     */
    handleResourceChanged(p) {
        const handler = p.listChanged ? this.#options.onResourceListChanged : this.#subscriptions.get(p.uri ?? "");
        if (handler === undefined) {
            return;
        }
        const report = (err) => process.stderr.write(`stratos: MCP server "${this.#server}": a resource change handler failed: ${toError(err).message}\n`);
        try {
            const out = contextStorage().run(this.#ctx, () => (p.listChanged ? handler() : handler(p.uri)));
            if (out instanceof Promise) {
                out.catch(report);
            }
        }
        catch (err) {
            report(err);
        }
    }
    async callTool(tool, input, structured) {
        if (this.#closing !== undefined) {
            throw new McpConnectionError(this.#server, `MCP server "${this.#server}": the client is closed`);
        }
        this.#ctx.assertAccepting(`calling MCP tool "${tool}"`);
        const journal = this.#ctx.host.journal;
        if (journal === undefined) {
            return this.#call(tool, input, structured);
        }
        const path = this.#ctx.journalPath;
        const hash = inputHash({ tool, arguments: input ?? {}, structured });
        const place = journal.placeMcpCall(path, this.#server, tool, hash);
        if (place.replayed !== undefined) {
            journal.replayed(this.#ctx, "mcp.call", `${this.#server}/${tool}`, place.k);
            return place.replayed.mcp?.result;
        }
        try {
            const result = await this.#call(tool, input, structured);
            journal.recordMcpCall(path, this.#server, tool, place, hash, result);
            return result;
        }
        catch (err) {
            journal.recordMcpCall(path, this.#server, tool, place, hash, undefined, toError(err));
            throw err;
        }
    }
    async #call(tool, input, structured) {
        await this.connect();
        const result = (await this.#request(Methods.mcpCall, { clientId: this.#id, tool, arguments: input ?? {} }));
        const content = (result.content ?? []);
        if (result.isError) {
            throw new McpToolError(this.#server, tool, content);
        }
        if (structured) {
            return result.structuredContent;
        }
        return {
            content,
            text: contentText(content),
            ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
        };
    }
    async resources() {
        const result = (await this.#feature("listing resources", Methods.mcpResources, { clientId: this.#id }));
        return result.resources ?? [];
    }
    async resourceTemplates() {
        const result = (await this.#feature("listing resource templates", Methods.mcpResourceTemplates, { clientId: this.#id }));
        return result.resourceTemplates ?? [];
    }
    async readResource(resource, options) {
        const uri = this.#uriOf("readResource", resource);
        const maxBytes = options?.maxBytes;
        if (maxBytes !== undefined && (!Number.isInteger(maxBytes) || maxBytes < 1 || maxBytes > maxResourceBytes)) {
            throw new RangeError(`MCP server "${this.#server}", resource "${uri}": maxBytes must be a whole number from 1 to ${maxResourceBytes}, got ${maxBytes}`);
        }
        const params = { clientId: this.#id, uri, ...(maxBytes === undefined ? {} : { maxBytes }) };
        const read = async () => {
            const result = (await this.#feature(`reading resource "${uri}"`, Methods.mcpReadResource, params));
            const contents = (result.contents ?? []);
            return { contents, text: contents.flatMap((c) => (typeof c.text === "string" ? [c.text] : [])).join("\n") };
        };
        return (await this.#journaled(readResourceEntry, { uri, maxBytes: maxBytes ?? null }, read));
    }
    /**
     * Runs a request through the run's journal as tool calls are: a resumed
     * run gets the recorded answer of one that succeeded. entry names it
     * among the server's tool calls (a name no tool can have).
     */
    async #journaled(entry, input, run) {
        const journal = this.#ctx.host.journal;
        if (journal === undefined) {
            return run();
        }
        const path = this.#ctx.journalPath;
        const hash = inputHash({ tool: entry, arguments: input });
        const place = journal.placeMcpCall(path, this.#server, entry, hash);
        if (place.replayed !== undefined) {
            journal.replayed(this.#ctx, "mcp.call", `${this.#server}/${entry}`, place.k);
            return place.replayed.mcp?.result;
        }
        try {
            const result = await run();
            journal.recordMcpCall(path, this.#server, entry, place, hash, result);
            return result;
        }
        catch (err) {
            journal.recordMcpCall(path, this.#server, entry, place, hash, undefined, toError(err));
            throw err;
        }
    }
    async subscribe(resource, onUpdated) {
        const uri = this.#uriOf("subscribe", resource);
        if (typeof onUpdated !== "function") {
            throw new TypeError(`MCP server "${this.#server}", resource "${uri}": subscribe needs an onUpdated function, got ${typeof onUpdated}`);
        }
        this.#subscriptions.set(uri, onUpdated);
        try {
            await this.#feature(`subscribing to resource "${uri}"`, Methods.mcpSubscribe, { clientId: this.#id, uri });
        }
        catch (err) {
            this.#subscriptions.delete(uri);
            throw err;
        }
    }
    async unsubscribe(resource) {
        const uri = this.#uriOf("unsubscribe", resource);
        this.#subscriptions.delete(uri);
        await this.#feature(`unsubscribing from resource "${uri}"`, Methods.mcpUnsubscribe, { clientId: this.#id, uri });
    }
    #uriOf(method, resource) {
        const uri = typeof resource === "string" ? resource : resource?.uri;
        if (typeof uri !== "string" || uri === "") {
            throw new TypeError(`MCP server "${this.#server}": ${method} needs a URI or a resource link, got ${JSON.stringify(resource)}`);
        }
        return uri;
    }
    async prompts() {
        const result = (await this.#feature("listing prompts", Methods.mcpPrompts, { clientId: this.#id }));
        return result.prompts ?? [];
    }
    async getPrompt(name, args) {
        const params = { clientId: this.#id, name, ...(args === undefined ? {} : { arguments: args }) };
        const result = (await this.#feature(`getting prompt "${name}"`, Methods.mcpGetPrompt, params));
        const messages = (result.messages ?? []);
        return {
            ...(result.description ? { description: result.description } : {}),
            messages,
            text: contentText(messages.map((m) => m.content)),
        };
    }
    /** Sends a resource or prompt request once the client is connected. */
    async #feature(what, method, params) {
        if (this.#closing !== undefined) {
            throw new McpConnectionError(this.#server, `MCP server "${this.#server}": the client is closed`);
        }
        this.#ctx.assertAccepting(`${what} of MCP server "${this.#server}"`);
        await this.connect();
        return this.#request(method, params);
    }
    close() {
        this.#closing ??= (async () => {
            this.#ctx.unregister(this);
            if (this.#connecting === undefined) {
                return; // never connected: nothing to close
            }
            // Wait for a connect under way so the host has the client to close.
            await this.#connecting.catch(() => { });
            await this.#host?.call(Methods.mcpClose, { clientId: this.#id }).catch(() => { });
            this.#host?.mcpClients.delete(this.#id);
        })();
        return this.#closing;
    }
    async #request(method, params) {
        try {
            this.#host ??= agentHostFor(this.#ctx);
            // The host's requests and notifications for this client find it.
            this.#host.mcpClients.set(this.#id, this);
            await this.#host.ready;
            return await this.#host.call(method, params);
        }
        catch (err) {
            throw toMcpError(this.#server, err);
        }
    }
}
/**
 * Checks, before a child workflow's run body, that every MCP server its
 * workflow.yaml declares with oauth has a login with at least five minutes
 * left (the agent host refreshes a token that has less). It starts no
 * connection. Rejects with McpConfigurationError naming the server and the
 * `stratos mcp login` command. @internal
 */
export async function authenticateMcps(ctx, workflowDir) {
    const host = agentHostFor(ctx);
    try {
        await host.ready;
        await host.call(Methods.mcpAuthenticate, { workflow: { name: ctx.workflow, dir: workflowDir } });
    }
    catch (err) {
        const server = err instanceof HostError && typeof err.data?.details?.server === "string" ? err.data.details.server : "";
        throw toMcpError(server, err);
    }
}
function toMcpError(server, err) {
    if (err instanceof HostError) {
        const code = err.data?.code;
        const options = { cause: err, details: err.data?.details ?? {} };
        switch (code) {
            case "mcp_configuration":
                return new McpConfigurationError(server, err.message, options);
            case "mcp_timeout":
                return new McpTimeoutError(server, err.message, options);
            case "mcp_protocol":
                return new McpProtocolError(server, err.message, options);
            case "mcp_resource_too_large": {
                const details = options.details;
                return new McpResourceTooLargeError(server, String(details.uri ?? ""), Number(details.limit ?? 0), err.message, options);
            }
            default:
                return new McpConnectionError(server, err.message, options);
        }
    }
    if (err instanceof StratosError) {
        return err;
    }
    return new McpConnectionError(server, `MCP server "${server}": ${err instanceof Error ? err.message : String(err)}`, { cause: err });
}
function contentText(content) {
    return content
        .filter((c) => c.type === "text" && typeof c.text === "string")
        .map((c) => c.text)
        .join("\n");
}
