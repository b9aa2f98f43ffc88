/** The vocabulary version written on every line. */
export declare const EventVersion = 1;
/**
 * Error is why something failed: a code when Stratos classified it, and a
 * message for people.
 */
export interface EventError {
    code?: string;
    message: string;
}
/** IDs correlate an event with the operations it belongs to. */
export interface EventIDs {
    /**
     * InvocationID is the agent execute the event belongs to: for
     * background work, the execute that started it, even when the work
     * reports after that execute ended.
     */
    invocationId?: string;
    toolCallId?: string;
    parentToolCallId?: string;
    messageId?: string;
    turnId?: string;
    promptId?: string;
    taskId?: string;
    /**
     * NativeSessionID is the harness's own session (Claude Code's session,
     * Codex's thread).
     */
    nativeSessionId?: string;
    mcpClientId?: string;
    /**
     * DecisionID is the decision the event belongs to
     * ("<executionId>/decision-<n>").
     */
    decisionId?: string;
    progressToken?: string;
}
/**
 * AgentAdmissionQueued: the agent waits for an admission slot (the
 * host's limit of agents running at once).
 */
export interface AgentAdmissionQueued {
}
/** AgentInitializationStarted: the harness session is being started. */
export interface AgentInitializationStarted {
}
/** AgentInitializationCompleted: the harness session started, or failed to. */
export interface AgentInitializationCompleted {
    status: "completed" | "failed";
    /** Harness is the harness the session runs on, once it started. */
    harness?: string;
    error?: EventError;
}
/** AgentInvocationStarted: an execute began. */
export interface AgentInvocationStarted {
    /** Name is the agent's configuration name. */
    name: string;
    /** PromptKind says how the prompt was given: text, file, template, config. */
    promptKind: string;
    configId?: string;
    /**
     * PromptPreview is the first line of a prompt given as text, cut to
     * MaxPromptPreview characters: what tells apart the agents of one
     * configuration that a fan-out gave different work. Never the whole
     * prompt; empty for a prompt from a file, a template or a configuration.
     */
    promptPreview?: string;
}
/** AgentInvocationCompleted: an execute ended. */
export interface AgentInvocationCompleted {
    status: "completed" | "failed";
    error?: EventError;
}
/**
 * AgentStructuredOutputRetry: the answer did not match the output schema
 * and the agent is asked again.
 */
export interface AgentStructuredOutputRetry {
    attempt: number;
    of: number;
    issues: Issue[];
}
/** Issue is one way a value failed its JSON Schema. */
export interface Issue {
    /** Path is the field's dotted path ("items.2.name"); "" is the value itself. */
    path: string;
    message: string;
}
/** AgentClosed: the agent's session was torn down. */
export interface AgentClosed {
    status: "closed" | "failed";
    error?: EventError;
}
/**
 * AgentSessionContinued: a resumed run's agent, whose earlier executes
 * were answered from the journal, continues the harness conversation they
 * had (Continued), or starts a new one (Reason says why) — whose first
 * prompt carries the replayed exchange when ByTranscript.
 */
export interface AgentSessionContinued {
    harness: string;
    /** SessionID is the harness's own session (thread) ID continued. */
    sessionId?: string;
    /** Calls counts the executes the conversation had. */
    calls: number;
    continued: boolean;
    reason?: string;
    /**
     * ByTranscript: the conversation continues by transcript, not
     * natively: the new session's first prompt carries Exchanges of its
     * exchanges (prompts and replies); Omitted, the oldest, are left out
     * to bound its size or because their prompts were not kept.
     */
    byTranscript?: boolean;
    exchanges?: number;
    omitted?: number;
}
/**
 * DecisionStarted: a decision began (ids.decisionId): its question's
 * kind and where it is asked.
 */
export interface DecisionStarted {
    kind: "choice" | "score" | "verdict";
    provider: string;
    model: string;
    /** Endpoint is the URL the decision is sent to (without credentials). */
    endpoint: string;
    samples: number;
}
/**
 * DecisionAdmissionQueued: a sample of the decision waits for a slot of
 * the run's decisions pool (decisions.maxConcurrent requests are
 * running); the decision's span shows how long.
 */
export interface DecisionAdmissionQueued {
    sample: number;
}
/**
 * DecisionRetry: a sample's answer failed the question's validation and
 * the model is asked again (Attempt of Of), told what was wrong.
 */
export interface DecisionRetry {
    sample: number;
    attempt: number;
    of: number;
    problem: string;
}
/**
 * DecisionCompleted: a decision ended, with its answer (the JSON the
 * model chose: a choice's id, a score's number, a verdict) or its error.
 */
export interface DecisionCompleted {
    status: "completed" | "failed";
    answer?: unknown;
    confidence?: number;
    basis?: string;
    error?: EventError;
}
/**
 * ModelUnavailable: a candidate model was refused and the agent moves to
 * the next of its list.
 */
export interface ModelUnavailable {
    harness: string;
    model: string;
    /** Next is the model tried next; "" when none is left. */
    next: string;
    error?: EventError;
}
/** ModelStarted: a model round trip began. */
export interface ModelStarted {
    model?: string;
    /** TTFTMs is the time to the first token, when the harness measures it. */
    ttftMs?: number;
    /**
     * Turn, Case and Call are the test harness's: its turn number, and
     * the case and call of the script step that answers.
     */
    turn?: number;
    case?: string;
    call?: number;
}
/** ModelCompleted: a model round trip ended. */
export interface ModelCompleted {
    model?: string;
    stopReason?: string;
    usage?: Tokens;
    /**
     * Turn is the test harness's. Status is set when the turn did not
     * complete (failed, cancelled): the test harness sets it on every
     * turn.
     */
    turn?: number;
    status?: string;
}
/**
 * Tokens are one turn's token counts, by kind. Input excludes cache reads
 * and writes (as prices are quoted); reasoning tokens are part of output.
 */
export interface Tokens {
    inputTokens: number;
    outputTokens: number;
    cacheReadInputTokens: number;
    cacheCreationInputTokens: number;
    reasoningOutputTokens: number;
}
/** ModelRetry: the harness retries a failed model request. */
export interface ModelRetry {
    attempt?: number;
    maxRetries?: number;
    retryDelayMs?: number;
    /** ErrorStatus is the HTTP status of the failed request, when known. */
    errorStatus?: number;
    errorKind?: string;
    message?: string;
}
/** MessageDelta: streamed text or reasoning. */
export interface MessageDelta {
    kind: "text" | "thinking";
    text: string;
    index?: number;
}
/** ToolStarted: a tool call began (ids.toolCallId). */
export interface ToolStarted {
    toolName: string;
    input?: unknown;
}
/** ToolCompleted: a tool call ended (ids.toolCallId). */
export interface ToolCompleted {
    toolName: string;
    isError: boolean;
    /**
     * Status is the harness's word for the outcome (completed, failed,
     * declined, denied, blocked, ...), when it has one.
     */
    status?: string;
    output?: unknown;
    error?: EventError;
    /** ExitCode is a shell command's. */
    exitCode?: number;
    /**
     * Input is the input the tool ran with, when a hook changed it
     * (Modified) or the harness reports it only at the end.
     */
    input?: unknown;
    modified?: boolean;
    /** Reason is a hook's, when it denied or blocked the call. */
    reason?: string;
}
/**
 * BackgroundStarted: work that outlives its turn began (ids.taskId;
 * ids.invocationId is the execute that started it).
 */
export interface BackgroundStarted {
    taskType?: string;
    description?: string;
    isBackgrounded?: boolean;
}
/** BackgroundActivity: background work reported progress. */
export interface BackgroundActivity {
    status?: string;
    description?: string;
    summary?: string;
    patch?: unknown;
}
/**
 * BackgroundCompleted: background work ended; status incomplete (and the
 * event reconstructed) when it was still running as its agent closed.
 */
export interface BackgroundCompleted {
    status?: string;
    summary?: string;
}
/** CompactionStarted: the harness began compacting its conversation. */
export interface CompactionStarted {
}
/** CompactionCompleted: the harness compacted its conversation. */
export interface CompactionCompleted {
    compactMetadata?: unknown;
}
/**
 * PlanUpdated: the agent reported its plan for the turn (an ACP agent's
 * plan update). Each update is the whole plan: it replaces the one
 * before.
 */
export interface PlanUpdated {
    entries: PlanEntry[];
}
/** PlanEntry is one step of an agent's plan. */
export interface PlanEntry {
    content: string;
    /**
     * Priority and Status are the agent's own words: ACP's are high,
     * medium, low and pending, in_progress, completed.
     */
    priority?: string;
    status?: string;
}
/**
 * Usage is one turn's usage: its tokens and, when known, its cost. It is
 * the one event budgets, roll-ups and tracing count.
 */
export interface Usage extends Tokens {
    /** CostUSD is the turn's cost in US dollars; absent when unknown. */
    costUsd?: number;
    /**
     * CostProvenance says where CostUSD comes from (CostReported or
     * CostPriced); absent with CostUSD.
     */
    costProvenance?: "reported" | "priced";
    provider?: string;
    model?: string;
    /**
     * NumTurns, DurationMs and DurationAPIMs are what Claude Code reports
     * of the turn; Unsolicited marks a turn it took without a prompt of
     * Stratos's (a background task's notification).
     */
    numTurns?: number;
    durationMs?: number;
    durationApiMs?: number;
    unsolicited?: boolean;
    /** Status is the turn's end as the harness reports it (Codex). */
    status?: string;
}
/** TestCase: the test harness served an execute from a case's script. */
export interface TestCase {
    case: string;
    call: number;
    served: number;
    config: string;
    label?: string;
    script: string;
}
/** MCPProgress: an MCP server reported progress of a direct tool call. */
export interface MCPProgress {
    server: string;
    progress: number;
    total?: number;
    message?: string;
}
/**
 * MCPLog: an MCP server sent a log message (notifications/message) to a
 * direct client of workflow code. Data is the message's data: a string as
 * itself, other JSON as its JSON text, cut to MCPLogMaxBytes (Truncated
 * then says so) so that a chatty server cannot swell the record.
 */
export interface MCPLog {
    server: string;
    level: "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";
    logger?: string;
    data: string;
    truncated?: boolean;
}
/** WorktreeAcquired: the agent got its worktree. */
export interface WorktreeAcquired {
    name: string;
    path: string;
    branch: string;
    repository: string;
    created: boolean;
    reused: boolean;
    branchNew: boolean;
    protected: boolean;
    warnings: Diagnostic[];
}
export interface Diagnostic {
    code: string;
    message: string;
    name?: string;
    changes?: Changes;
}
export interface Changes {
    staged: string[];
    unstaged: string[];
    untracked: string[];
}
/**
 * WorktreeReconciled: before the first worktree of a repository, the
 * host settled what earlier runs left; on failure only Status, Error and
 * WorkingDirectory are set.
 */
export interface WorktreeReconciled extends Partial<ReconcileResult> {
    status?: "failed";
    error?: EventError;
    workingDirectory?: string;
}
export interface ReconcileResult {
    repository: string;
    staleOwnersRemoved: StaleOwner[];
    worktrees: Settlement[];
    trashPruned: string[];
    warnings: Diagnostic[];
}
export interface StaleOwner {
    name: string;
    id: string;
    pid: number;
    startTime: number;
}
export interface Settlement {
    name: string;
    path: string;
    branch?: string;
    outcome: string;
    reason?: string;
    liveOwners: string[];
    staleOwnersRemoved: StaleOwner[];
    trash?: TrashKept;
    warnings: Diagnostic[];
}
export interface TrashKept {
    path: string;
    files: string[];
}
/**
 * WorktreeReleased: at the run's end, the host gave a worktree back. The
 * release's result names the worktree; when the release failed, only its
 * name, path and repository are set.
 */
export interface WorktreeReleased extends Partial<ReleaseResult> {
    status: "released" | "failed";
    error?: EventError;
    /** Agents are the agents that used it. */
    agents: string[];
}
export interface ReleaseResult extends Settlement {
    repository: string;
    released: boolean;
}
/** WorkflowLog: workflow code called log(message). */
export interface WorkflowLog {
    message: string;
}
/** WorkflowPhase: workflow code called phase(name). */
export interface WorkflowPhase {
    phase: string;
}
/**
 * WorkflowChildStarted: a child invocation started (the envelope's
 * executionId and workflow are the child's).
 */
export interface WorkflowChildStarted {
    parentExecutionId: string;
    parentWorkflow: string;
    /** RunID is the top-level invocation's execution ID: the run's record. */
    runId: string;
}
/**
 * WorkflowChildCompleted: a child invocation ended, its agents and
 * children closed.
 */
export interface WorkflowChildCompleted extends WorkflowChildStarted {
    status: "succeeded" | "failed" | "cancelled";
    durationMs: number;
    error?: EventError;
}
/**
 * CallReplayed: a resumed run answered a call from the journal of the
 * execution it resumes, without making it (the workflow runtime writes it).
 */
export interface CallReplayed {
    /** Call is what was answered. */
    call: "agent.execute" | "workflow.child" | "mcp.call" | "budget.read";
    /** Path is the invocation's place in the journal. */
    path: string;
    /**
     * Name names the callee: the agent ("configId#label"), the child
     * workflow, or "server/tool".
     */
    name?: string;
    /**
     * Number is the execute's number on its agent object, or the place of
     * a child, an MCP call or a budget reading among its kind.
     */
    number?: number;
    /** From is the execution whose journal answered. */
    from: string;
}
/** The details of each event type. */
export interface EventDetails {
    "agent.admission.queued": AgentAdmissionQueued;
    "agent.initialization.started": AgentInitializationStarted;
    "agent.initialization.completed": AgentInitializationCompleted;
    "agent.invocation.started": AgentInvocationStarted;
    "agent.invocation.completed": AgentInvocationCompleted;
    "agent.structured_output.retry": AgentStructuredOutputRetry;
    "agent.closed": AgentClosed;
    "agent.session.continued": AgentSessionContinued;
    "decision.started": DecisionStarted;
    "decision.admission.queued": DecisionAdmissionQueued;
    "decision.retry": DecisionRetry;
    "decision.completed": DecisionCompleted;
    "model.unavailable": ModelUnavailable;
    "model.started": ModelStarted;
    "model.completed": ModelCompleted;
    "model.retry": ModelRetry;
    "message.delta": MessageDelta;
    "tool.started": ToolStarted;
    "tool.completed": ToolCompleted;
    "background.started": BackgroundStarted;
    "background.activity": BackgroundActivity;
    "background.completed": BackgroundCompleted;
    "compaction.started": CompactionStarted;
    "compaction.completed": CompactionCompleted;
    "plan.updated": PlanUpdated;
    "usage": Usage;
    "test.case": TestCase;
    "mcp.progress": MCPProgress;
    "mcp.log": MCPLog;
    "worktree.acquired": WorktreeAcquired;
    "worktree.reconciled": WorktreeReconciled;
    "worktree.released": WorktreeReleased;
    "workflow.log": WorkflowLog;
    "workflow.phase": WorkflowPhase;
    "workflow.child.started": WorkflowChildStarted;
    "workflow.child.completed": WorkflowChildCompleted;
    "call.replayed": CallReplayed;
}
/** Every event type of the current version. */
export type EventType = keyof EventDetails;
/** Event is one line of events.jsonl. */
export interface EventOf<T extends EventType> {
    /**
     * V is the vocabulary version the line was written in; 0 on lines
     * written before versions existed (they are mapped on read).
     */
    v: number;
    type: T;
    /** Timestamp is RFC 3339 with nanoseconds, UTC. */
    timestamp: string;
    /**
     * Sequence is the agent host's order of the events it wrote (0 on the
     * runtime's lines, which have no sequence).
     */
    sequence?: number;
    /**
     * ExecutionID is the workflow invocation the event belongs to: the
     * run's own for the top-level workflow, a child's for a child's.
     */
    executionId: string;
    /** Workflow is the invocation's workflow name, on the runtime's lines. */
    workflow?: string;
    /** AgentID and Label name the agent of an agent's events. */
    agentId?: string;
    label?: string;
    ids?: EventIDs;
    /**
     * Reconstructed marks an event Stratos wrote on the harness's behalf
     * after the fact (background work still running when its agent
     * closed), not one the harness reported.
     */
    reconstructed?: boolean;
    /**
     * Worker names the stratos worker that ran the agent, on the events of
     * agents a run on the Temporal engine ran on another machine.
     */
    worker?: string;
    /**
     * Phase is the phase of workflow code (phase()) the event happened in,
     * as a path of nested phases ("review/fix"): on an agent's events, the
     * phase its execute was started in; on a child's start and end, the
     * phase of its parent that executed it. Absent outside any phase.
     */
    phase?: string;
    /**
     * Details is the kind's own fields: one of the types Kinds lists, or
     * *Unknown for a kind this version does not know.
     */
    details?: EventDetails[T];
}
/** Any line of the current version, discriminated by type. */
export type StratosEvent = {
    [T in EventType]: EventOf<T>;
}[EventType];
