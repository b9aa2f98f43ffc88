// The connection to the agent host (`stratos-agent serve`): one process per
// top-level execution, started when its first agent executes and shared by
// the execution's children. JSON-RPC 2.0, one JSON object per line, on the
// child's stdin/stdout; its stderr is passed through (logs). The host exits
// when its stdin closes, so it never outlives this process.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ExecutionContext, OwnedResource } from "./context.js";
import {
  MaxMessageBytes,
  Methods,
  ProtocolVersion,
  RPCAgentError,
  RPCInvalidRequest,
  type ErrorData,
  type InitializeResult,
  type MCPElicitParams,
  type MCPElicitResult,
  type MCPResourceChangedParams,
} from "./agent-protocol.js";
import { StratosError } from "./errors.js";

/** An agent that answers the host's hook calls; a rejection becomes an error response. @internal */
export interface HookTarget {
  handleHook(method: string, params: Record<string, unknown>): Promise<unknown>;
}

/** A direct MCP client: it answers its server's elicitation requests and hears its resource changes. @internal */
export interface McpClientTarget {
  handleElicitation(params: MCPElicitParams): Promise<MCPElicitResult>;
  handleResourceChanged(params: MCPResourceChangedParams): void;
}

/** An error response from the host. @internal */
export class HostError extends Error {
  readonly rpcCode: number;
  readonly data: ErrorData | undefined;
  constructor(rpcCode: number, message: string, data: ErrorData | undefined) {
    super(message);
    this.rpcCode = rpcCode;
    this.data = data;
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

interface Message {
  jsonrpc?: string;
  id?: number | string | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: ErrorData };
}

/**
 * Where stratos-agent is: $STRATOS_AGENT_BIN; else $STRATOS_BIN_DIR/stratos-agent;
 * else next to the executable of the process that started node (stratos run,
 * whose siblings are installed together; Linux, through /proc); else PATH.
 * @internal
 */
export function agentBinary(env: NodeJS.ProcessEnv = process.env): string {
  if (env.STRATOS_AGENT_BIN) {
    return env.STRATOS_AGENT_BIN;
  }
  const dirs: string[] = [];
  if (env.STRATOS_BIN_DIR) {
    dirs.push(env.STRATOS_BIN_DIR);
  }
  try {
    dirs.push(dirname(readlinkSync(`/proc/${process.ppid}/exe`)));
  } catch {
    // not Linux, or the parent is gone: PATH decides
  }
  for (const dir of dirs) {
    const p = join(dir, "stratos-agent");
    if (existsSync(p)) {
      return p;
    }
  }
  return "stratos-agent";
}

/** One running agent host. @internal */
export class AgentHost implements OwnedResource {
  readonly #child: ChildProcess;
  readonly #pending = new Map<number, Pending>();
  /** The agents that executed through this host, by agent ID. */
  readonly agents = new Map<string, HookTarget>();
  /** The direct MCP clients that answer elicitation, by client ID. */
  readonly mcpClients = new Map<string, McpClientTarget>();
  readonly #exited: Promise<void>;
  #nextId = 0;
  #buffer = "";
  #closing: Promise<void> | undefined;
  #failure: Error | undefined;
  readonly ready: Promise<InitializeResult>;

  constructor(topExecutionId: string) {
    const bin = agentBinary();
    this.#child = spawn(bin, ["serve"], { stdio: ["pipe", "pipe", "inherit"] });
    this.#exited = new Promise((resolve) => {
      this.#child.on("error", (err) => {
        this.#fail(new StratosError("harness_unavailable", `cannot start the agent host ${bin}: ${err.message}`, { cause: err }));
        resolve();
      });
      this.#child.on("exit", (code, signal) => {
        this.#fail(new StratosError("internal", `the agent host exited (${signal ?? `code ${code}`})`));
        resolve();
      });
    });
    this.#child.stdin!.on("error", () => {}); // a dead host is reported through "exit"
    this.#child.stdout!.setEncoding("utf8");
    this.#child.stdout!.on("data", (chunk: string) => this.#read(chunk));
    this.ready = this.call(Methods.initialize, { protocolVersion: ProtocolVersion, executionId: topExecutionId }) as Promise<InitializeResult>;
    // Failures surface through the calls that wait for ready.
    this.ready.catch(() => {});
  }

  /** Sends a request and resolves with its result; an error response rejects with a HostError. */
  call(method: string, params: unknown): Promise<unknown> {
    if (this.#failure !== undefined) {
      return Promise.reject(this.#failure);
    }
    const id = ++this.#nextId;
    const line = JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n";
    const bytes = oversize(line);
    if (bytes !== undefined) {
      return Promise.reject(tooLarge(`the ${method} request`, bytes));
    }
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#child.stdin!.write(line);
    });
  }

  /** Sends a notification. */
  notify(method: string, params: unknown): void {
    const bytes = this.#failure === undefined ? this.#write({ jsonrpc: "2.0", method, params }) : undefined;
    if (bytes !== undefined) {
      process.stderr.write(`stratos: ${tooLarge(`the ${method} notification`, bytes).message}\n`);
    }
  }

  /** Closes every session (shutdown), then the pipe; the host exits. Repeated calls wait for the first. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      try {
        // A host that failed to initialize has no session to shut down.
        const initialized = await this.ready.then(() => true, () => false);
        if (this.#failure === undefined && initialized) {
          await this.call(Methods.shutdown, {});
        }
      } finally {
        this.#child.stdin!.end();
        await this.#exited;
      }
    })();
    return this.#closing;
  }

  // write sends m; when the host would not read it, it returns its size
  // in bytes instead.
  #write(m: Message): number | undefined {
    const line = JSON.stringify(m) + "\n";
    const bytes = oversize(line);
    if (bytes === undefined) {
      this.#child.stdin!.write(line);
    }
    return bytes;
  }

  #read(chunk: string): void {
    this.#buffer += chunk;
    let nl: number;
    while ((nl = this.#buffer.indexOf("\n")) >= 0) {
      const line = this.#buffer.slice(0, nl);
      this.#buffer = this.#buffer.slice(nl + 1);
      if (line.trim() !== "") {
        this.#dispatch(line);
      }
    }
  }

  #dispatch(line: string): void {
    let m: Message;
    try {
      m = JSON.parse(line) as Message;
    } catch {
      process.stderr.write(`stratos: agent host sent a malformed line: ${line.slice(0, 200)}\n`);
      return;
    }
    if (m.method !== undefined) {
      this.#answer(m);
      return;
    }
    if (m.id === null && m.error !== undefined) {
      // The host could not read a message, so it cannot say whose it was.
      process.stderr.write(`stratos: the agent host could not read a message of this run: ${m.error.message}\n`);
      return;
    }
    const p = typeof m.id === "number" ? this.#pending.get(m.id) : undefined;
    if (p === undefined) {
      return;
    }
    this.#pending.delete(m.id as number);
    if (m.error !== undefined) {
      p.reject(new HostError(m.error.code, m.error.message, m.error.data));
    } else {
      p.resolve(m.result);
    }
  }

  #answer(m: Message): void {
    const id = m.id;
    // A notification (no id) gets no answer.
    const reply = id === undefined || id === null ? undefined : (answer: Message) => this.#write({ ...answer, id });
    const fail = (message: string) => reply?.({ jsonrpc: "2.0", error: { code: RPCAgentError, message } });
    this.#handle(m.method!, m.params).then(
      (result) => {
        // An answer the host would not read fails the host's call instead of leaving it waiting.
        const bytes = reply?.({ jsonrpc: "2.0", result: result ?? null });
        if (bytes !== undefined) {
          fail(tooLarge(`the answer to ${m.method!}`, bytes).message);
        }
      },
      (err: unknown) => fail(err instanceof Error ? `${err.name}: ${err.message}` : String(err)),
    );
  }

  async #handle(method: string, params: unknown): Promise<unknown> {
    if (method === Methods.event) {
      return undefined; // not requested: events are recorded in the run's events.jsonl
    }
    const p = (params ?? {}) as Record<string, unknown>;
    if (method === Methods.mcpElicit || method === Methods.mcpResourceChanged) {
      const client = this.mcpClients.get(String(p.clientId));
      if (client === undefined) {
        throw new Error(`${method}: unknown MCP client ${String(p.clientId)}`);
      }
      if (method === Methods.mcpResourceChanged) {
        return client.handleResourceChanged(p as unknown as MCPResourceChangedParams);
      }
      return client.handleElicitation(p as unknown as MCPElicitParams);
    }
    const target = this.agents.get(String(p.agentId));
    if (target === undefined) {
      throw new Error(`${method}: unknown agent ${String(p.agentId)}`);
    }
    return target.handleHook(method, p);
  }

  #fail(err: Error): void {
    this.#failure ??= err;
    for (const p of this.#pending.values()) {
      p.reject(this.#failure);
    }
    this.#pending.clear();
  }
}

// oversize is line's length in UTF-8 bytes when the host would not read it
// (over MaxMessageBytes), else undefined. A UTF-16 unit is at most three
// bytes, so a line of up to a third of the limit is not measured.
function oversize(line: string): number | undefined {
  if (line.length * 3 <= MaxMessageBytes) {
    return undefined;
  }
  const bytes = Buffer.byteLength(line);
  return bytes > MaxMessageBytes ? bytes : undefined;
}

// tooLarge is the error of a request over MaxMessageBytes: a protocol error,
// as the host would have answered it, that names what to do instead.
function tooLarge(what: string, bytes: number): HostError {
  const message = `${what} is ${bytes} bytes, over the ${MaxMessageBytes} bytes (64 MiB) the agent host reads in one message; send less (a large text is better written to a file the agent reads)`;
  return new HostError(RPCInvalidRequest, message, { code: "protocol", details: { bytes, limit: MaxMessageBytes } });
}

// The host of each top-level execution. A WeakMap keyed by the context, not
// a global "current" host: children find it through their top-level context.
const hosts = new WeakMap<ExecutionContext, AgentHost>();

/** The top-level context of ctx. @internal */
export function topContext(ctx: ExecutionContext): ExecutionContext {
  let top = ctx;
  while (top.parent !== undefined) {
    top = top.parent;
  }
  return top;
}

/**
 * The agent host of ctx's top-level execution, started on first use and
 * closed with that execution (it is one of its owned resources). @internal
 */
export function agentHostFor(ctx: ExecutionContext): AgentHost {
  const top = topContext(ctx);
  let host = hosts.get(top);
  if (host === undefined) {
    host = new AgentHost(top.executionId);
    hosts.set(top, host);
    top.register(host, "starting the agent host");
  }
  return host;
}

/** The host of ctx's top-level execution if one was started. @internal */
export function existingAgentHost(ctx: ExecutionContext): AgentHost | undefined {
  return hosts.get(topContext(ctx));
}
