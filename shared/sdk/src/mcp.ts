// Direct MCP clients: what the wrappers Stratos generates for a workflow's
// MCP servers (generated/mcp/<server>.ts) call. The connection lives in the
// agent host (the Go MCP SDK), reached through the host protocol; this side
// owns the client's lifetime: it belongs to the calling execution and is
// closed with it, even when the execution fails.
import { contextStorage, getContext, type ExecutionContext, type OwnedResource } from "./context.js";
import { agentHostFor, HostError, type AgentHost, type McpClientTarget } from "./agent-host.js";
import {
  Methods,
  type DecisionConfig,
  type DecisionLayers,
  type MCPCallResult,
  type MCPConnectResult,
  type MCPElicitParams,
  type MCPElicitResult,
  type MCPGetPromptResult,
  type MCPPromptsResult,
  type MCPReadResourceResult,
  type MCPResourceChangedParams,
  type MCPResourcesResult,
  type MCPResourceTemplatesResult,
} from "./agent-protocol.js";
import { StratosError, toError } from "./errors.js";
import { inputHash } from "./journal.js";

/** The codes of direct MCP client errors: one per class below. */
export type McpErrorCode =
  | "mcp_tool_error"
  | "mcp_configuration"
  | "mcp_connection"
  | "mcp_timeout"
  | "mcp_protocol"
  | "mcp_resource_too_large";

/** The base class of direct MCP client errors; `server` is the mcp.servers key. */
export class McpError<C extends McpErrorCode = McpErrorCode> extends StratosError<C> {
  readonly server: string;
  constructor(code: C, server: string, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(code, message, { cause: options?.cause, details: { server, ...options?.details } });
    this.name = "McpError";
    this.server = server;
  }
}

/** A tool answered isError: true (code mcp_tool_error); its content is kept. */
export class McpToolError extends McpError<"mcp_tool_error"> {
  readonly tool: string;
  readonly content: readonly McpContent[];
  constructor(server: string, tool: string, content: McpContent[]) {
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
export class McpResourceTooLargeError extends McpError<"mcp_resource_too_large"> {
  readonly uri: string;
  readonly limit: number;
  constructor(server: string, uri: string, limit: number, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super("mcp_resource_too_large", server, message, { cause: options?.cause, details: { ...options?.details, uri, limit } });
    this.name = "McpResourceTooLargeError";
    this.uri = uri;
    this.limit = limit;
  }
}

function mcpErrorClass<C extends Exclude<McpErrorCode, "mcp_tool_error" | "mcp_resource_too_large">>(name: string, code: C) {
  const cls = class extends McpError<C> {
    constructor(server: string, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
      super(code, server, message, options);
      this.name = name;
    }
  };
  Object.defineProperty(cls, "name", { value: name });
  return cls;
}

/** The server is not declared or invalid, or a ${NAME} it references is unset (code mcp_configuration). */
export const McpConfigurationError = mcpErrorClass("McpConfigurationError", "mcp_configuration");
export type McpConfigurationError = InstanceType<typeof McpConfigurationError>;
/** The server could not be started or reached, or the connection broke (code mcp_connection). */
export const McpConnectionError = mcpErrorClass("McpConnectionError", "mcp_connection");
export type McpConnectionError = InstanceType<typeof McpConnectionError>;
/** A request took longer than five minutes; it is not retried (code mcp_timeout). */
export const McpTimeoutError = mcpErrorClass("McpTimeoutError", "mcp_timeout");
export type McpTimeoutError = InstanceType<typeof McpTimeoutError>;
/** The server answered with a JSON-RPC error: an unknown resource or prompt, or for some servers an unknown tool or invalid arguments (most answer those with a tool error: McpToolError) (code mcp_protocol). */
export const McpProtocolError = mcpErrorClass("McpProtocolError", "mcp_protocol");
export type McpProtocolError = InstanceType<typeof McpProtocolError>;

/** One content block of a tool result (text, image, resource, ...), as the server sent it. */
export type McpContent = { type: string; text?: string } & Record<string, unknown>;

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
export function resourceLinks(result: McpToolResult | readonly McpContent[]): McpResourceLink[] {
  const content: readonly McpContent[] = Array.isArray(result) ? result : (result as McpToolResult).content;
  return content.filter((c): c is McpResourceLink => c.type === "resource_link" && typeof c.uri === "string");
}

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
export type McpResourceContents =
  | { uri: string; mimeType?: string; text: string; blob?: never }
  | { uri: string; mimeType?: string; blob: string; text?: never };

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
export type McpElicitationAnswer =
  | { action: "accept"; content: Record<string, McpElicitationValue> }
  | { action: "decline" }
  | { action: "cancel" };

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

const logLevels: readonly McpLogLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/**
 * The journal's name for a resource read among a server's tool calls: MCP
 * tool names have no "/", so no tool shares it.
 */
const readResourceEntry = "resources/read";

/** The most a readResource may allow (options.maxBytes). */
const maxResourceBytes = 32 << 20;

/** A ready direct client. @internal */
export interface McpClient extends McpResourcesAndPrompts {
  callTool(tool: string, input: unknown, structured: boolean): Promise<unknown>;
  close(): Promise<void>;
}

let nextClient = 0;

/**
 * Connects to a server the workflow declares and resolves once it is ready.
 * For generated wrappers only ("@stratoscli/stratos/generated"). @internal
 */
export async function connectMcpServer(ref: { workflow: string; server: string }, options?: McpConnectOptions): Promise<McpClient> {
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
  } catch (err) {
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
function samplingDecision(ctx: ExecutionContext): { decision?: DecisionLayers } {
  const yaml = ctx.host.workflows[ctx.workflow]?.config?.decision ?? undefined;
  const overrides = ctx.overrides.decision;
  const layers: DecisionLayers = {
    ...(yaml === undefined || yaml === null ? {} : { yaml: yaml as DecisionConfig }),
    ...(overrides === undefined ? {} : { overrides: overrides as DecisionConfig }),
  };
  return Object.keys(layers).length === 0 ? {} : { decision: layers };
}

class DirectClient implements McpClient, OwnedResource, McpClientTarget {
  readonly #ctx: ExecutionContext;
  readonly #server: string;
  readonly #id: string;
  readonly #workflowDir: string;
  readonly #options: McpConnectOptions;
  readonly #onElicitation: McpConnectOptions["onElicitation"];
  /** The subscribed resources' onUpdated, by URI. */
  readonly #subscriptions = new Map<string, (uri: string) => void>();
  #host: AgentHost | undefined;
  #connecting: Promise<unknown> | undefined;
  #closing: Promise<void> | undefined;

  constructor(ctx: ExecutionContext, server: string, id: string, workflowDir: string, options: McpConnectOptions) {
    this.#ctx = ctx;
    this.#server = server;
    this.#id = id;
    this.#workflowDir = workflowDir;
    this.#options = options;
    this.#onElicitation = options.onElicitation;
  }

  /** Connects, once: later calls share the first connection's outcome. */
  connect(): Promise<unknown> {
    this.#connecting ??= this.#request(Methods.mcpConnect, {
      clientId: this.#id,
      executionId: this.#ctx.executionId,
      workflow: { name: this.#ctx.workflow, dir: this.#workflowDir },
      server: this.#server,
      ...(this.#onElicitation === undefined ? {} : { elicitation: true }),
      ...(this.#options.logLevel === undefined ? {} : { logLevel: this.#options.logLevel }),
      ...(this.#options.onResourceListChanged === undefined ? {} : { resourceListChanged: true }),
      ...samplingDecision(this.#ctx),
    }) as Promise<MCPConnectResult>;
    return this.#connecting;
  }

  /**
   * Answers the server's elicitation with the workflow's handler (the host
   * asks only clients connected with one). A rejection becomes an error
   * response: the host declines and writes why to stderr.
   */
  async handleElicitation(p: MCPElicitParams): Promise<MCPElicitResult> {
    const request: McpElicitationRequest = { server: this.#server, message: p.message, requestedSchema: p.requestedSchema ?? {} };
    const answer = await contextStorage().run(this.#ctx, async () => await this.#onElicitation!(request));
    const action = (answer as { action?: unknown } | undefined)?.action;
    if (action === "accept") {
      return { action, content: (answer as { content?: Record<string, unknown> }).content ?? {} };
    }
    // decline, cancel, or an action the host names in its error.
    return { action: String(action) as MCPElicitResult["action"] };
  }

  /**
   * Passes a server's resource change on: to the subscription's onUpdated,
   * or to onResourceListChanged. They run in the execution's context; one
   * that throws has its error written to stderr (the server is not told).
   */
  handleResourceChanged(p: MCPResourceChangedParams): void {
    const handler = p.listChanged ? this.#options.onResourceListChanged : this.#subscriptions.get(p.uri ?? "");
    if (handler === undefined) {
      return;
    }
    const report = (err: unknown) => process.stderr.write(`stratos: MCP server "${this.#server}": a resource change handler failed: ${toError(err).message}\n`);
    try {
      const out: unknown = contextStorage().run(this.#ctx, () => (p.listChanged ? (handler as () => void)() : handler(p.uri!)));
      if (out instanceof Promise) {
        out.catch(report);
      }
    } catch (err) {
      report(err);
    }
  }

  async callTool(tool: string, input: unknown, structured: boolean): Promise<unknown> {
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
    } catch (err) {
      journal.recordMcpCall(path, this.#server, tool, place, hash, undefined, toError(err));
      throw err;
    }
  }

  async #call(tool: string, input: unknown, structured: boolean): Promise<unknown> {
    await this.connect();
    const result = (await this.#request(Methods.mcpCall, { clientId: this.#id, tool, arguments: input ?? {} })) as MCPCallResult;
    const content = (result.content ?? []) as McpContent[];
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
    } satisfies McpToolResult;
  }

  async resources(): Promise<McpResource[]> {
    const result = (await this.#feature("listing resources", Methods.mcpResources, { clientId: this.#id })) as MCPResourcesResult;
    return result.resources ?? [];
  }

  async resourceTemplates(): Promise<McpResourceTemplate[]> {
    const result = (await this.#feature("listing resource templates", Methods.mcpResourceTemplates, { clientId: this.#id })) as MCPResourceTemplatesResult;
    return result.resourceTemplates ?? [];
  }

  async readResource(resource: string | McpResourceLink, options?: McpReadResourceOptions): Promise<McpResourceRead> {
    const uri = this.#uriOf("readResource", resource);
    const maxBytes = options?.maxBytes;
    if (maxBytes !== undefined && (!Number.isInteger(maxBytes) || maxBytes < 1 || maxBytes > maxResourceBytes)) {
      throw new RangeError(`MCP server "${this.#server}", resource "${uri}": maxBytes must be a whole number from 1 to ${maxResourceBytes}, got ${maxBytes}`);
    }
    const params = { clientId: this.#id, uri, ...(maxBytes === undefined ? {} : { maxBytes }) };
    const read = async (): Promise<McpResourceRead> => {
      const result = (await this.#feature(`reading resource "${uri}"`, Methods.mcpReadResource, params)) as MCPReadResourceResult;
      const contents = (result.contents ?? []) as McpResourceContents[];
      return { contents, text: contents.flatMap((c) => (typeof c.text === "string" ? [c.text] : [])).join("\n") };
    };
    return (await this.#journaled(readResourceEntry, { uri, maxBytes: maxBytes ?? null }, read)) as McpResourceRead;
  }

  /**
   * Runs a request through the run's journal as tool calls are: a resumed
   * run gets the recorded answer of one that succeeded. entry names it
   * among the server's tool calls (a name no tool can have).
   */
  async #journaled(entry: string, input: unknown, run: () => Promise<unknown>): Promise<unknown> {
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
    } catch (err) {
      journal.recordMcpCall(path, this.#server, entry, place, hash, undefined, toError(err));
      throw err;
    }
  }

  async subscribe(resource: string | McpResourceLink, onUpdated: (uri: string) => void): Promise<void> {
    const uri = this.#uriOf("subscribe", resource);
    if (typeof onUpdated !== "function") {
      throw new TypeError(`MCP server "${this.#server}", resource "${uri}": subscribe needs an onUpdated function, got ${typeof onUpdated}`);
    }
    this.#subscriptions.set(uri, onUpdated);
    try {
      await this.#feature(`subscribing to resource "${uri}"`, Methods.mcpSubscribe, { clientId: this.#id, uri });
    } catch (err) {
      this.#subscriptions.delete(uri);
      throw err;
    }
  }

  async unsubscribe(resource: string | McpResourceLink): Promise<void> {
    const uri = this.#uriOf("unsubscribe", resource);
    this.#subscriptions.delete(uri);
    await this.#feature(`unsubscribing from resource "${uri}"`, Methods.mcpUnsubscribe, { clientId: this.#id, uri });
  }

  #uriOf(method: string, resource: string | McpResourceLink): string {
    const uri = typeof resource === "string" ? resource : resource?.uri;
    if (typeof uri !== "string" || uri === "") {
      throw new TypeError(`MCP server "${this.#server}": ${method} needs a URI or a resource link, got ${JSON.stringify(resource)}`);
    }
    return uri;
  }

  async prompts(): Promise<McpPrompt[]> {
    const result = (await this.#feature("listing prompts", Methods.mcpPrompts, { clientId: this.#id })) as MCPPromptsResult;
    return result.prompts ?? [];
  }

  async getPrompt(name: string, args?: Record<string, string>): Promise<McpPromptResult> {
    const params = { clientId: this.#id, name, ...(args === undefined ? {} : { arguments: args }) };
    const result = (await this.#feature(`getting prompt "${name}"`, Methods.mcpGetPrompt, params)) as MCPGetPromptResult;
    const messages = (result.messages ?? []) as McpPromptMessage[];
    return {
      ...(result.description ? { description: result.description } : {}),
      messages,
      text: contentText(messages.map((m) => m.content)),
    };
  }

  /** Sends a resource or prompt request once the client is connected. */
  async #feature(what: string, method: string, params: unknown): Promise<unknown> {
    if (this.#closing !== undefined) {
      throw new McpConnectionError(this.#server, `MCP server "${this.#server}": the client is closed`);
    }
    this.#ctx.assertAccepting(`${what} of MCP server "${this.#server}"`);
    await this.connect();
    return this.#request(method, params);
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#ctx.unregister(this);
      if (this.#connecting === undefined) {
        return; // never connected: nothing to close
      }
      // Wait for a connect under way so the host has the client to close.
      await this.#connecting.catch(() => {});
      await this.#host?.call(Methods.mcpClose, { clientId: this.#id }).catch(() => {});
      this.#host?.mcpClients.delete(this.#id);
    })();
    return this.#closing;
  }

  async #request(method: string, params: unknown): Promise<unknown> {
    try {
      this.#host ??= agentHostFor(this.#ctx);
      // The host's requests and notifications for this client find it.
      this.#host.mcpClients.set(this.#id, this);
      await this.#host.ready;
      return await this.#host.call(method, params);
    } catch (err) {
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
export async function authenticateMcps(ctx: ExecutionContext, workflowDir: string): Promise<void> {
  const host = agentHostFor(ctx);
  try {
    await host.ready;
    await host.call(Methods.mcpAuthenticate, { workflow: { name: ctx.workflow, dir: workflowDir } });
  } catch (err) {
    const server = err instanceof HostError && typeof err.data?.details?.server === "string" ? err.data.details.server : "";
    throw toMcpError(server, err);
  }
}

function toMcpError(server: string, err: unknown): Error {
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
        const details = options.details as { uri?: unknown; limit?: unknown };
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

function contentText(content: readonly McpContent[]): string {
  return content
    .filter((c) => c.type === "text" && typeof c.text === "string")
    .map((c) => c.text)
    .join("\n");
}
