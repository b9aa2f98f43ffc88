/** The longest message, its newline included, that the host reads (in UTF-8 bytes). */
export declare const MaxMessageBytes = 67108864;
/** Every method name (SDK → host and host → SDK). */
export declare const Methods: {
    readonly agentCancel: "agent.cancel";
    readonly agentClose: "agent.close";
    readonly agentExecute: "agent.execute";
    readonly event: "event";
    readonly executionClose: "execution.close";
    readonly hookAfterToolCall: "hook.afterToolCall";
    readonly hookBeforeToolCall: "hook.beforeToolCall";
    readonly hookOnStart: "hook.onStart";
    readonly initialize: "initialize";
    readonly shutdown: "shutdown";
    readonly mcpAuthenticate: "mcp.authenticate";
    readonly mcpCall: "mcp.call";
    readonly mcpClose: "mcp.close";
    readonly mcpConnect: "mcp.connect";
    readonly mcpElicit: "mcp.elicit";
    readonly mcpGetPrompt: "mcp.getPrompt";
    readonly mcpPrompts: "mcp.prompts";
    readonly mcpReadResource: "mcp.readResource";
    readonly mcpResourceChanged: "mcp.resourceChanged";
    readonly mcpResourceTemplates: "mcp.resourceTemplates";
    readonly mcpResources: "mcp.resources";
    readonly mcpSubscribe: "mcp.subscribe";
    readonly mcpUnsubscribe: "mcp.unsubscribe";
    readonly decisionAsk: "decision.ask";
    readonly decisionCancel: "decision.cancel";
};
/** Every agent error code (error.data.code of an error response). */
export declare const ErrorCodes: readonly ["admission", "authentication", "cancelled", "concurrent_use", "configuration", "context_closed", "execution", "harness_unavailable", "hook_failed", "initialization", "internal", "model_unavailable", "prompt_file", "protocol", "structured_output", "template_variable_missing", "unscripted_agent"];
export type ErrorCode = (typeof ErrorCodes)[number];
/** Every direct MCP client error code (error.data.code of an mcp.* error response). */
export declare const MCPErrorCodes: readonly ["mcp_configuration", "mcp_connection", "mcp_protocol", "mcp_resource_too_large", "mcp_timeout"];
export type MCPErrorCode = (typeof MCPErrorCodes)[number];
/** Every decision error code (error.data.code of a decision.ask error response). */
export declare const DecisionErrorCodes: readonly ["decision_admission", "decision_configuration", "decision_endpoint", "decision_invalid_answer", "decision_model_unavailable", "decision_timeout"];
export type DecisionErrorCode = (typeof DecisionErrorCodes)[number];
/** The JSON-RPC error code of agent errors. */
export declare const RPCAgentError = -32000;
/** The JSON-RPC error code of a request the SDK does not send (over MaxMessageBytes). */
export declare const RPCInvalidRequest = -32600;
/** InitializeParams opens the connection. */
export interface InitializeParams {
    protocolVersion: number;
    /** ExecutionID is the top-level execution the host serves. */
    executionId: string;
    /**
     * RunDir is the run record directory (~/.stratos/runs/<executionId>);
     * events.jsonl is appended there. Empty: derived from $HOME and ExecutionID.
     */
    runDir?: string;
    /** Settings overrides ~/.stratos/settings.json when set. */
    settings?: Settings;
    /** Events asks for event notifications (they are recorded either way). */
    events?: boolean;
}
/** Settings are the admission limits of one top-level execution. */
export interface Settings {
    maxConcurrent: number;
    maxOutstanding: number;
    /**
     * Decisions are the decisions' own limits (settings.json's
     * decisions); nil in InitializeParams: the defaults.
     */
    decisions?: Limits;
}
/**
 * Limits are admission limits: at most MaxConcurrent run, at most
 * MaxOutstanding run or wait.
 */
export interface Limits {
    maxConcurrent: number;
    maxOutstanding: number;
}
/** InitializeResult reports what the host will apply. */
export interface InitializeResult {
    protocolVersion: number;
    version: string;
    settings: Settings;
    eventsFile: string;
    /**
     * KeysExecutes says the host keys its own record of finished executes
     * by their journal place (an engine that runs them elsewhere: Temporal),
     * so the SDK sends ExecuteParams.Place. The local host does not need
     * it: without it the SDK hashes an execute's input for its journal
     * after the request went out, while the host works on it.
     */
    keysExecutes?: boolean;
}
/**
 * WorkflowRef names the workflow whose code created the agent: its
 * workflow.yaml supplies the named configurations, and prompt and template
 * files resolve against its directory.
 */
export interface WorkflowRef {
    name: string;
    dir: string;
}
/** Overrides is the agents part of an execution's invocation overrides. */
export interface Overrides {
    agents?: Record<string, AgentConfig>;
}
/**
 * PromptSource is a literal string, {file}, {template} or (for execute's
 * prompt only) {configId}. Exactly one form is set.
 */
export type PromptSource = string | {
    file: string;
} | {
    template: string;
} | {
    configId: string;
};
/** TemplateVariables holds the variable dictionaries of each template field. */
export interface TemplateVariables {
    systemPrompt?: Record<string, unknown>;
    prompt?: Record<string, unknown>;
}
/** Worktree is the agent's worktree setting. */
export interface Worktree {
    enabled: boolean;
    name?: string;
    cleanup?: boolean;
}
/**
 * AgentConfig is one agent configuration as it crosses the protocol: the
 * fields of createAgent({...}), of one invocation override
 * (overrides.agents[configId]) and of one workflow.yaml agents entry alike.
 *
 * Pointers and pointer-to-slices distinguish "not supplied" (nil) from a
 * supplied value: a supplied list replaces the lower-priority one, and an
 * empty list means none.
 */
export interface AgentConfig {
    /** ConfigID selects the named configuration (creation only). */
    configId?: string;
    harness?: string;
    provider?: string;
    model?: string | string[];
    effort?: string;
    systemPrompt?: PromptSource;
    prompt?: PromptSource;
    templateVariables?: TemplateVariables;
    allowedMcps?: string[];
    allowedTools?: string[];
    disallowedTools?: string[];
    workingDirectory?: string;
    worktree?: Worktree;
    /**
     * StructuredOutputRetries is how many times the host sends a
     * structured output's validation errors back to the agent, in the same
     * conversation, before the call fails (harnesses without a native retry).
     */
    structuredOutputRetries?: number;
    /** Test is the script of the test harness: inline, or {"file": path}. */
    test?: unknown;
    /**
     * ACP is the agent the acp harness runs: any agent that speaks the
     * Agent Client Protocol on its stdin and stdout, given whole or by
     * the name the machine's ~/.stratos/settings.json gives it.
     */
    acp?: ACPRef;
}
/**
 * ACPRef is the acp field: the program given whole (Agent), or the name
 * of one the machine's ~/.stratos/settings.json declares under acpAgents
 * (Name), so that a workflow can say "qwen" and each machine say where
 * its Qwen Code is and which credential it reads. In JSON it is the
 * ACPAgent object or the name as a string.
 */
export type ACPRef = string | ACPAgent;
/**
 * ACPAgent is the program the acp harness starts for each session of an
 * agent. Env values may reference the host's environment as ${NAME} (a
 * credential stays out of the workflow's files); the program sees PATH,
 * the locale, a private HOME and these variables, nothing else of the
 * user's environment.
 */
export interface ACPAgent {
    /**
     * Command is the program: a name looked up on PATH, or a path
     * (relative to the workflow directory when it has a slash).
     */
    command: string;
    /** Args are its arguments, e.g. ["--acp"]. */
    args?: string[];
    /** Env are variables set for it, by name. */
    env?: Record<string, string>;
    /**
     * AuthMethod is the ACP auth method to authenticate with when the
     * agent offers it (Gemini CLI's "gemini-api-key"); "" authenticates
     * with none.
     */
    authMethod?: string;
    /**
     * SystemPromptFileVar names the variable through which the agent reads
     * its system prompt from a file (Gemini CLI's GEMINI_SYSTEM_MD): the
     * harness writes the agent's system prompt and worktree context to a
     * private file and sets the variable to its path. ACP has no system
     * prompt of its own, so without it an agent with either is refused.
     */
    systemPromptFileVar?: string;
}
/** ExecuteParams is one execute(prompt, templateVariables?) call. */
export interface ExecuteParams {
    /** AgentID identifies the agent object (unique within the host). */
    agentId: string;
    /**
     * Name is how messages refer to the agent: its configId ("configId#label"
     * with a label, the label alone without a configId), or "agent #n".
     */
    name: string;
    /**
     * Label is the label createAgent gave the agent ("" for none): events
     * carry it, and overrides may target "configId#label".
     */
    label?: string;
    /** Call numbers the agent's executes from 1; agent.cancel names it. */
    call: number;
    /** ExecutionID is the execution that owns the agent. */
    executionId: string;
    workflow: WorkflowRef;
    /**
     * Cwd is the invocation working directory; a relative workingDirectory
     * resolves against it.
     */
    cwd: string;
    /**
     * Overrides is the owning execution's invocation overrides (Overrides);
     * raw, so the host can report malformed fields with their paths.
     */
    overrides?: Overrides;
    /**
     * Config is the object's creation fields (AgentConfig), raw for the same
     * reason.
     */
    config: AgentConfig;
    /** Hooks names the tool and lifecycle hooks the object has (Hook*). */
    hooks?: string[];
    /** OutputSchema is the JSON Schema of the object's outputSchema. */
    outputSchema?: Record<string, unknown>;
    prompt: PromptSource;
    templateVariables?: Record<string, unknown>;
    /**
     * Continue, on an object's first execute in a resumed run, is the
     * conversation its earlier executes had in the execution resumed
     * (answered from the journal since): the host continues it when the
     * harness can.
     */
    continue?: Continuation;
    /**
     * Place is where the execute happened in the workflow code, as the
     * run's journal keys it (nil in a run without a journal, and sent only
     * to a host whose InitializeResult.KeysExecutes is set). The local host
     * does not need it; an engine that runs executes elsewhere (Temporal)
     * keys its own record of finished executes by it, so a retried
     * workflow-code worker is answered instead of running an agent again.
     */
    place?: ExecutePlace;
    /**
     * Phase is the phase of workflow code the execute was started in (a
     * path of nested phases, "review/fix"; "" outside any): the host puts
     * it on the execute's events.
     */
    phase?: string;
}
/** Continuation is a conversation to continue. */
export interface Continuation {
    session: SessionRef;
    /** Calls counts the executes the conversation had. */
    calls: number;
    /**
     * Transcript is the conversation's exchanges whose prompts the journal
     * kept (those of a harness that cannot continue a session), in order:
     * when the harness cannot continue the session, the new session's
     * first prompt carries them.
     */
    transcript?: Exchange[];
}
/**
 * ExecutePlace is an execute's journal key: the invocation path, the
 * agent's configuration, label and number among the agents of that
 * configuration and label, and the SHA-256 of what the execute sends.
 * (Call is ExecuteParams.Call.)
 */
export interface ExecutePlace {
    path: string;
    configId?: string;
    label?: string;
    agent: number;
    inputSha256: string;
}
/** SessionRef names the harness conversation an execute ran in. */
export interface SessionRef {
    harness: string;
    /** ID is the harness's own session (thread) ID; "" when it reported none. */
    id?: string;
    /**
     * State is the directory (absolute, in the run record) where the
     * adapter keeps what continuing the session needs besides ID; "" for
     * none.
     */
    state?: string;
    /**
     * Worktree is the name of the managed worktree the agent worked in
     * ("" for none): a resumed agent whose worktree has no name of its
     * own is given this one back, with the work in it.
     */
    worktree?: string;
}
/**
 * Exchange is one execute of a conversation: what the harness was asked
 * and what it replied.
 */
export interface Exchange {
    /** Call is the execute's number on its agent object (1, 2, ...). */
    call: number;
    /** Prompt is the prompt as the harness was sent it (rendered). */
    prompt: string;
    /**
     * Reply is the reply's text, or the JSON of the value of an agent with
     * an output schema.
     */
    reply: string;
}
/** ExecuteResult is Text without an output schema, Value with one. */
export interface ExecuteResult {
    text?: string;
    value?: unknown;
    /**
     * Usage sums the usage the execute's model turns reported by the time
     * it returned (nil when none did): the run's journal keeps it, so that
     * a resumed run can say what its replayed executes cost the first time.
     */
    usage?: CallUsage;
    /**
     * Session is the conversation the execute ran in; the journal keeps
     * it, so that a resumed run can continue it.
     */
    session?: SessionRef;
    /**
     * Prompt is the prompt the harness was sent (rendered, without an
     * exchange a continuation carried), set only when the harness cannot
     * continue a session itself: the journal keeps it, so that a resumed
     * run's new session can carry the exchange (Continuation.Transcript).
     */
    prompt?: string;
}
/** CallUsage is the usage of some model turns, summed as budgets count it. */
export interface CallUsage {
    /** Tokens counts input, output, cache read and cache write tokens. */
    tokens: number;
    /** USD sums the cost of the turns whose cost is known. */
    usd: number;
    turns: number;
    /** UnknownCostTurns counts the turns whose cost is not known. */
    unknownCostTurns: number;
}
/** AgentRef names one agent object. */
export interface AgentRef {
    agentId: string;
}
/**
 * CancelParams cancels one execute of an agent. Naming the call makes the
 * notification safe to handle in any order relative to the execute request:
 * a cancel that arrives first is remembered, one for a finished call is void.
 */
export interface CancelParams {
    agentId: string;
    call: number;
    /**
     * Orphaned says the call is cancelled only because the runtime lost
     * the stratos run it answers to (its process died): the workflow did
     * not ask for it. A host of its own runs cancels the call as any
     * other; an engine whose executes outlive one attempt of the code
     * (Temporal, which gives the code to another worker that attaches to
     * the executes still running) leaves them running for that attempt.
     */
    orphaned?: boolean;
}
/** ExecutionRef names one execution. */
export interface ExecutionRef {
    executionId: string;
}
/** CloseResult reports what a close did. */
export interface CloseResult {
    /** Closed counts the sessions whose harness resources were released. */
    closed: number;
}
/** ToolCallParams is a tool call the harness is about to make. */
export interface ToolCallParams {
    agentId: string;
    executionId: string;
    toolCallId: string;
    toolName: string;
    input: unknown;
}
/**
 * AfterToolCallParams is a finished tool call: Output on success, Error on
 * failure (also when a beforeToolCall hook denied it).
 */
export interface AfterToolCallParams {
    agentId: string;
    executionId: string;
    toolCallId: string;
    toolName: string;
    input: unknown;
    output?: unknown;
    error?: ToolError;
}
/** ToolError describes a failed tool call. */
export interface ToolError {
    message: string;
}
/**
 * BeforeToolCallResult is allow, deny (Reason) or modify (Arguments). A null
 * result means allow.
 */
export interface BeforeToolCallResult {
    action: "allow" | "deny" | "modify";
    reason?: string;
    arguments?: Record<string, unknown>;
}
/** AfterToolCallResult is block (Reason). A null result keeps the output. */
export interface AfterToolCallResult {
    action: "block";
    reason?: string;
}
/** LifecycleParams names the agent whose invocation starts. */
export interface LifecycleParams {
    agentId: string;
    executionId: string;
}
/**
 * Event is one observation, as recorded in events.jsonl: the event
 * vocabulary's line (shared/contract/eventapi), whose details are one type
 * per kind.
 */
export type Event = import("./events.js").StratosEvent;
/** IDs correlate an event with the operations it belongs to. */
export type IDs = import("./events.js").EventIDs;
/** ErrorData is the data member of an agent error response. */
export interface ErrorData {
    code: string;
    details?: Record<string, unknown>;
}
/**
 * MCPConnectParams creates a direct client of one declared server, owned by
 * an execution.
 */
export interface MCPConnectParams {
    /** ClientID is chosen by the SDK, unique within the host. */
    clientId: string;
    executionId: string;
    workflow: WorkflowRef;
    /** Server is a key of the workflow's mcp.servers. */
    server: string;
    /**
     * Elicitation says the workflow answers the server's elicitation
     * requests itself (mcp.elicit); false: the declared policy answers.
     */
    elicitation?: boolean;
    /**
     * LogLevel is the least severe level of the server's log messages to
     * ask for ("": none is asked, the server's default stands); each
     * message becomes an mcp.log event.
     */
    logLevel?: "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";
    /**
     * ResourceListChanged says the workflow hears when the server's list
     * of resources changes (mcp.resourceChanged with listChanged).
     */
    resourceListChanged?: boolean;
    /**
     * Decision is the workflow's decision configuration, with which the
     * host answers the sampling requests of a server declared with
     * sampling: decision: workflow.yaml's section and the invocation's
     * overrides (Call is not used). nil: the host reads workflow.yaml's.
     */
    decision?: DecisionLayers;
}
/** MCPConnectResult describes the ready client. */
export interface MCPConnectResult {
    protocolVersion: string;
}
/** MCPCallParams calls one tool. */
export interface MCPCallParams {
    clientId: string;
    tool: string;
    arguments: Record<string, unknown>;
}
/**
 * MCPCallResult is the tool's result as the server sent it. IsError results
 * are returned too: the SDK turns them into McpToolError.
 */
export interface MCPCallResult {
    content: Array<Record<string, unknown>>;
    structuredContent?: unknown;
    isError?: boolean;
}
/** MCPClientRef names a client. */
export interface MCPClientRef {
    clientId: string;
}
/** MCPAuthenticateParams names the workflow whose OAuth servers to check. */
export interface MCPAuthenticateParams {
    workflow: WorkflowRef;
}
/**
 * MCPElicitParams is a server's elicitation request (form mode), passed to
 * the workflow's handler of the client.
 */
export interface MCPElicitParams {
    clientId: string;
    /** Server is the mcp.servers key. */
    server: string;
    message: string;
    /**
     * RequestedSchema is the form: a flat object schema of primitive
     * properties.
     */
    requestedSchema?: Record<string, unknown>;
}
/**
 * MCPElicitResult is the handler's answer. Content, with action accept
 * only, is checked against the requested schema before the server sees it.
 */
export interface MCPElicitResult {
    action: "accept" | "decline" | "cancel";
    content?: Record<string, unknown>;
}
/**
 * MCPSubscribeParams names a resource of a client to subscribe to or
 * unsubscribe from.
 */
export interface MCPSubscribeParams {
    clientId: string;
    uri: string;
}
/**
 * MCPResourceChangedParams is a change the server announced: the resource
 * URI changed, or (ListChanged, no URI) the list of resources did.
 */
export interface MCPResourceChangedParams {
    clientId: string;
    uri?: string;
    listChanged?: boolean;
}
/** MCPResource is one resource a server lists. */
export interface MCPResource {
    uri: string;
    name: string;
    title?: string;
    description?: string;
    mimeType?: string;
    /** Size is the raw size in bytes, when the server says. */
    size?: number;
}
/** MCPResourcesResult lists every resource of a server, sorted by URI. */
export interface MCPResourcesResult {
    resources: MCPResource[];
}
/**
 * MCPResourceTemplate is one resource template a server lists: a URI
 * template (RFC 6570) whose expansions readResource reads.
 */
export interface MCPResourceTemplate {
    uriTemplate: string;
    name: string;
    title?: string;
    description?: string;
    mimeType?: string;
}
/**
 * MCPResourceTemplatesResult lists every resource template of a server,
 * sorted by URI template.
 */
export interface MCPResourceTemplatesResult {
    resourceTemplates: MCPResourceTemplate[];
}
/** MCPReadResourceParams reads one resource by URI. */
export interface MCPReadResourceParams {
    clientId: string;
    uri: string;
    /**
     * MaxBytes is the read's size limit (0: DefaultResourceLimit; at most
     * MaxResourceLimit).
     */
    maxBytes?: number;
}
/**
 * MCPResourceContents is one part of a resource: text, or a blob in
 * base64 (exactly one is set).
 */
export interface MCPResourceContents {
    uri: string;
    mimeType?: string;
    text?: string;
    blob?: string;
}
/** MCPReadResourceResult is a resource's contents. */
export interface MCPReadResourceResult {
    contents: MCPResourceContents[];
}
/** MCPPromptArgument is one argument a prompt takes. */
export interface MCPPromptArgument {
    name: string;
    title?: string;
    description?: string;
    required?: boolean;
}
/** MCPPrompt is one prompt a server lists. */
export interface MCPPrompt {
    name: string;
    title?: string;
    description?: string;
    arguments?: MCPPromptArgument[];
}
/** MCPPromptsResult lists every prompt of a server, sorted by name. */
export interface MCPPromptsResult {
    prompts: MCPPrompt[];
}
/** MCPGetPromptParams gets one prompt with its arguments filled in. */
export interface MCPGetPromptParams {
    clientId: string;
    name: string;
    arguments?: Record<string, string>;
}
/**
 * MCPPromptMessage is one message of a prompt: its role and one content
 * block as the server sent it.
 */
export interface MCPPromptMessage {
    role: "user" | "assistant";
    content: Record<string, unknown>;
}
/** MCPGetPromptResult is a prompt's messages. */
export interface MCPGetPromptResult {
    description?: string;
    messages: MCPPromptMessage[];
}
/**
 * Question is what a decision asks, as the SDK's builders made it: a
 * choice among options, a score in a range, or a yes/no/unsure verdict.
 */
export interface Question {
    kind: "choice" | "score" | "verdict";
    prompt: string;
    /** Options are a choice's options, in the order they are offered. */
    options?: ChoiceOption[];
    /**
     * Min, Max and Step bound a score: Min ≤ n ≤ Max, and with Step, n is
     * Min plus a whole number of steps.
     */
    min?: number;
    max?: number;
    step?: number;
}
/**
 * ChoiceOption is one option of a choice: the id the model answers with,
 * and what it means.
 */
export interface ChoiceOption {
    id: string;
    description?: string;
}
/**
 * DecisionConfig is one layer of a decision's configuration: the
 * decision section of workflow.yaml, the invocation's decision overrides
 * (`stratos run --overrides`, a child wrapper's overrides.decision; never
 * inherited by children), or the decision() call's options. Nil fields
 * are not given by that layer. The layers merge field by field, the call
 * over the invocation over workflow.yaml: a field a layer leaves out keeps
 * the value of the layers below it, and a field no layer gives has the
 * default named on it. Each layer is checked on its own, and a bad value
 * is a decision_configuration error naming the layer and the field. The
 * test provider's script is a field of every layer too, read by the host
 * alone (stratos-agent/decision), so it is not part of this type.
 */
export interface DecisionConfig {
    /**
     * Provider chooses the backend: "ollama", "openai" (OpenAI or a
     * compatible endpoint), "anthropic", or "test" (answered from the
     * script). Without one in any layer, a catalog ID whose creator is
     * openai or anthropic implies it; any other model needs it.
     */
    provider?: string;
    /**
     * Model is the model that answers: an installed Ollama name (no tag
     * means ":latest"), or for a hosted provider a catalog ID
     * ("openai/gpt-4.1-mini") or the endpoint's own name. No layer giving
     * one is a configuration error.
     */
    model?: string;
    /**
     * BaseURL is the endpoint: an HTTP(S) URL without credentials, query
     * or fragment, which may carry a path prefix. The effective one wins
     * over OLLAMA_HOST for Ollama, and an invalid one is an error that
     * falls back to nothing; without one, Ollama uses OLLAMA_HOST, then
     * http://127.0.0.1:11434, and a hosted provider its own endpoint.
     */
    baseUrl?: string;
    /**
     * Samples is how many answers to ask for (1–15, default 1); the
     * majority answers, with the agreement as its confidence.
     */
    samples?: number;
    /**
     * Retries is how many times an invalid answer is asked again, per
     * sample (0–10, default 2).
     */
    retries?: number;
    /**
     * TimeoutMs bounds the whole decision, every sample and retry
     * included (1–3600000, default 120000).
     */
    timeoutMs?: number;
    /**
     * Temperature (0–2) is sent to the model when a layer gives it;
     * otherwise the model's own applies.
     */
    temperature?: number;
    /**
     * Seed is sent when a layer gives it: the first sample with Seed,
     * each further one with one more, so that samples differ (the
     * Anthropic API takes none); no default.
     */
    seed?: number;
    /**
     * Reasons asks the model for its reasons beside the answer (default
     * false: they cost output tokens).
     */
    reasons?: boolean;
}
/**
 * DecisionLayers are a decision's configuration layers. Each is raw, as
 * the SDK got it, so the host names the layer and field of a bad value.
 */
export interface DecisionLayers {
    /** YAML is the workflow.yaml's decision section. */
    yaml?: DecisionConfig;
    /** Overrides are the invocation's decision overrides. */
    overrides?: DecisionConfig;
    /** Call are the decision() call's options. */
    call?: DecisionConfig;
}
/** DecisionParams is one decision(question, options) call. */
export interface DecisionParams {
    /**
     * DecisionID identifies the decision within the host:
     * "<executionId>/decision-<n>".
     */
    decisionId: string;
    executionId: string;
    workflow: WorkflowRef;
    question: Question;
    config: DecisionLayers;
    /**
     * Phase is the phase of workflow code the decision was asked in (a
     * path of nested phases, "review/fix"; "" outside any): the host puts
     * it on the decision's events, as on an execute's.
     */
    phase?: string;
}
/** DecisionResult is a validated answer. */
export interface DecisionResult {
    /**
     * Answer is a choice's option id, a score's number, or "yes", "no"
     * or "unsure".
     */
    answer: string | number;
    confidence: number;
    basis: "agreement" | "logprobs";
    /** Samples is how many answers were asked for. */
    samples: number;
    /** Reasons are the model's reasons for the answer, when asked for. */
    reasons?: string[];
    /** Usage sums the decision's model requests. */
    usage?: CallUsage;
    provider: string;
    model: string;
    /**
     * Endpoint is the URL the decision was sent to (it carries no
     * credentials).
     */
    endpoint: string;
}
/** DecisionRef names one decision. */
export interface DecisionRef {
    decisionId: string;
}
