import type * as z from "zod";
import type { Schema } from "./workflow.js";
import type { HarnessName } from "./harness-names.js";
/** A system prompt: literal text, a plain file or a Handlebars template (paths relative to the workflow directory). */
export type SystemPromptSource = string | {
    file: string;
} | {
    template: string;
};
/** A user prompt: like a system prompt, or the prompt of a named configuration of workflow.yaml. */
export type PromptSource = SystemPromptSource | {
    configId: string;
};
/** A tool call, as tool hooks see it. */
export interface ToolCall {
    toolCallId: string;
    toolName: string;
    input: Record<string, unknown>;
}
/** A finished tool call: output on success, error on failure. */
export interface ToolCallResult extends ToolCall {
    output?: unknown;
    error?: {
        message: string;
    };
}
/** What beforeToolCall decides; nothing means allow. */
export type BeforeToolCallResult = void | {
    action: "allow";
} | {
    action: "deny";
    reason: string;
} | {
    action: "modify";
    arguments: Record<string, unknown>;
};
/** What afterToolCall decides; nothing keeps the result. */
export type AfterToolCallResult = void | {
    action: "block";
    reason: string;
};
/** Callbacks fixed at creation. A hook that throws or rejects fails the invocation. */
export interface AgentHooks {
    /** Before each tool call: allow, deny with a reason the agent sees, or replace the arguments. */
    beforeToolCall?(call: ToolCall): BeforeToolCallResult | Promise<BeforeToolCallResult>;
    /** After each tool call (with its output or error): block withholds the output and gives the agent the reason. */
    afterToolCall?(call: ToolCallResult): AfterToolCallResult | Promise<AfterToolCallResult>;
    /** When an execute was admitted and the harness is about to receive the prompt. */
    onStart?(): void | Promise<void>;
    /** When an execute succeeded (after structured output was validated). */
    onComplete?(): void | Promise<void>;
    /** When an execute failed; if it throws too, execute rejects with an AggregateError of both. */
    onError?(error: unknown): void | Promise<void>;
}
/** One scripted initialization attempt of the test harness. */
export interface TestAttempt {
    fail?: "initialization" | "authentication" | "model_unavailable";
    message?: string;
    delayMs?: number;
}
/** One scripted tool call of the test harness. */
export interface TestToolCall {
    tool: string;
    input?: Record<string, unknown>;
    output?: unknown;
    error?: string;
}
/** Checks on the prompt a turn or case receives; a mismatch fails the execute. */
export interface TestExpect {
    prompt?: string;
    promptContains?: string;
    promptNotContains?: string;
    /** A regular expression (Go syntax). */
    promptMatches?: string;
    systemPromptContains?: string;
}
/** The test harness's reaction to one execute. */
export interface TestTurn {
    expect?: TestExpect;
    delayMs?: number;
    /** Files written in the agent's working directory, path → content. */
    files?: Record<string, string>;
    toolCalls?: TestToolCall[];
    /** A Handlebars template over {prompt, turn, history, tools, systemPrompt, model, ...}. */
    reply?: string;
    /** The structured reply, for agents with an outputSchema; its strings are templates. */
    value?: unknown;
    /** A template whose rendering is the structured reply's JSON text. */
    valueJSON?: string;
    fail?: "execution" | "authentication" | "model_unavailable";
    message?: string;
    /** The turn's usage, recorded as a usage event (costUsd absent: no cost reported). */
    usage?: {
        inputTokens?: number;
        outputTokens?: number;
        cacheReadInputTokens?: number;
        cacheCreationInputTokens?: number;
        reasoningOutputTokens?: number;
        costUsd?: number;
    };
}
/** Which calls a test case serves; every condition given must hold. */
export interface TestWhen {
    promptContains?: string;
    promptNotContains?: string;
    /** A regular expression (Go syntax); its groups are the templates' captures. */
    promptMatches?: string;
    /** The agent's label. */
    label?: string;
    /** The call's 1-based index across every agent of the configuration in the run. */
    call?: number;
}
/** A test case chosen per call: the first whose `when` holds serves the call (no `when`: every call). */
export interface TestCase extends Omit<TestTurn, "expect"> {
    name?: string;
    when?: TestWhen;
    expect?: TestExpect;
}
/** The script of the test harness (harness: "test"): turns per agent object, or cases per call; see docs/harness-test.md. */
export type TestScript = {
    initialize?: TestAttempt[];
    turns: TestTurn[];
    repeat?: boolean;
} | {
    initialize?: TestAttempt[];
    cases: TestCase[];
};
/** The settings of createAgent({...}); each overrides the invocation overrides and workflow.yaml field by field. */
export interface AgentOptions<S extends Schema | undefined = Schema | undefined> {
    /** A named configuration of workflow.yaml's agents map. */
    configId?: string;
    /**
     * Names this agent among the agents of its configuration ("r1-3"): it is in
     * every event, error message and run-record entry of the agent (as
     * "configId#label"), and overrides may target "configId#label".
     */
    label?: string;
    harness?: HarnessName;
    provider?: string;
    /** A model ID or an ordered list of preferred model IDs. */
    model?: string | string[];
    effort?: string;
    systemPrompt?: SystemPromptSource;
    prompt?: SystemPromptSource;
    templateVariables?: {
        systemPrompt?: Record<string, unknown>;
        prompt?: Record<string, unknown>;
    };
    /** Keys of the workflow's mcp.servers; [] enables none. */
    allowedMcps?: string[];
    allowedTools?: string[];
    disallowedTools?: string[];
    /** Relative paths resolve against the invocation directory. */
    workingDirectory?: string;
    worktree?: {
        enabled: boolean;
        name?: string;
        cleanup?: boolean;
    };
    hooks?: AgentHooks;
    /** A Zod schema: execute resolves to its parsed value instead of text. */
    outputSchema?: S;
    /**
     * How many times (0–10) a value that fails outputSchema is sent back to the
     * agent with its validation errors before execute fails, on harnesses
     * without a native retry (test, codex); Claude Code retries in the turn.
     */
    structuredOutputRetries?: number;
    /** The test harness's script, inline or { file } (relative to the workflow directory). */
    test?: TestScript | {
        file: string;
    };
}
/** A configured agent: one conversation, executed sequentially. */
export interface Agent<TOutput = string> {
    /** Sends one user prompt; templateVariables are the prompt template's variables. */
    execute(prompt: PromptSource, templateVariables?: Record<string, unknown>): Promise<TOutput>;
    /**
     * Signals cancellation of the running execute (which then rejects with
     * CancelledError) and of background work the agent's prompts started,
     * also when no execute runs; returns at once.
     */
    cancel(): void;
}
/**
 * Creates a configured agent in the current workflow execution. Nothing
 * starts: the configuration is resolved and validated, and the harness
 * initialized, at the first execute(), where errors are catchable.
 */
export declare function createAgent<S extends Schema>(options: AgentOptions<S> & {
    outputSchema: S;
}): Agent<z.output<S>>;
export declare function createAgent(options?: AgentOptions<undefined>): Agent<string>;
