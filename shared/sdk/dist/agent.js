// Configured agent objects: createAgent({...}) binds a configuration and a
// conversation identity, synchronously, without starting anything; each
// execute() sends one prompt to the agent host (stratos-agent serve), which
// resolves and validates the configuration at the first execute, initializes
// the harness, and continues the same conversation afterwards. The agent is
// registered in its execution context at creation and closed with it.
import { safeParse, toJSONSchema } from "zod";
import { contextStorage, getContext } from "./context.js";
import { CancelledError, ContextClosedError, StratosError, isOrphanedCancellation, issueText, toError } from "./errors.js";
import { agentHostFor, existingAgentHost, HostError } from "./agent-host.js";
import { Methods, RPCInvalidRequest } from "./agent-protocol.js";
import { AgentConfigurationError, AgentExecutionError, AgentHookError, ConcurrentUseError, StructuredOutputError, agentErrorFor, isAgentErrorCode } from "./agent-errors.js";
import { toIssues } from "./validate.js";
import { ExecuteRecord, executeInputHash, inputHash } from "./journal.js";
import { promptFilesDigest } from "./prompt-files.js";
const hookNames = ["beforeToolCall", "afterToolCall", "onStart", "onComplete", "onError"];
const hostHooks = ["beforeToolCall", "afterToolCall", "onStart"];
const counters = new WeakMap();
// The configured agent behind each Agent handed out, for closeAgent (ask()).
const configured = new WeakMap();
export function createAgent(options = {}) {
    const ctx = getContext("createAgent()");
    const n = (counters.get(ctx) ?? 0) + 1;
    counters.set(ctx, n);
    const agent = new ConfiguredAgent(ctx, n, options ?? {});
    ctx.register(agent, "createAgent()");
    const handle = Object.freeze({
        execute: (prompt, templateVariables) => agent.execute(prompt, templateVariables),
        cancel: () => agent.cancel(),
    });
    configured.set(handle, agent);
    return handle;
}
/**
 * Closes an agent before its execution ends (its harness session, and its
 * worktree if it has one) and forgets it in its execution context. @internal
 */
export async function closeAgent(handle) {
    await configured.get(handle)?.closeEarly();
}
// agentName is how messages refer to an agent: "configId#label", the
// configId or the label alone, or "agent #n".
function agentName(options, n) {
    const configId = typeof options.configId === "string" && options.configId !== "" ? options.configId : "";
    const label = typeof options.label === "string" && options.label !== "" ? options.label : "";
    if (configId !== "" && label !== "") {
        return `${configId}#${label}`;
    }
    return configId || label || `agent #${n}`;
}
class ConfiguredAgent {
    #ctx;
    #id;
    #name;
    #options;
    #hooks;
    #host;
    #active;
    #closed = false;
    #calls = 0;
    #wire;
    // The object's place in the run's journal, fixed at its first execute,
    // and the hash of the settings its executes share.
    #binding;
    #settings;
    constructor(ctx, n, options) {
        this.#ctx = ctx;
        this.#id = `${ctx.executionId}/agent-${n}`;
        this.#name = agentName(options, n);
        this.#options = { ...options };
        this.#hooks = { ...(options.hooks ?? {}) };
    }
    async execute(prompt, templateVariables) {
        try {
            return await this.#execute(prompt, templateVariables);
        }
        catch (err) {
            throw await this.#onError(toError(err));
        }
    }
    async #execute(prompt, templateVariables) {
        const operation = `agent "${this.#name}".execute()`;
        if (this.#closed) {
            throw new ContextClosedError(operation, this.#ctx.workflow, this.#ctx.executionId, "closed");
        }
        this.#ctx.assertAccepting(operation);
        if (this.#active !== undefined) {
            throw new ConcurrentUseError(this.#name, `Concurrent execute calls cannot use the same agent object (agent "${this.#name}"). Update the workflow script to execute this agent sequentially, or create separate agents for parallel execution.`);
        }
        const call = { n: ++this.#calls };
        this.#active = call;
        const signal = this.#ctx.signal;
        const onAbort = () => this.cancel();
        try {
            const phase = this.#ctx.phase(); // not hashed: renaming a phase does not change what resuming replays
            const params = {
                ...this.#params(),
                call: call.n,
                prompt,
                ...(templateVariables === undefined ? {} : { templateVariables }),
                ...(phase === "" ? {} : { phase }),
            };
            const journal = this.#ctx.host.journal;
            if (journal === undefined) {
                return await this.#send(params, call, signal, onAbort);
            }
            // In a run with a journal: answered from the journal when the
            // execution being resumed made the same call, else sent and its
            // result or error journalled. (Inline rather than an async method of
            // its own: a promise less per execute.)
            const record = new ExecuteRecord(call.n, () => executeInputHash(this.#settingsHash(), params.call, params.prompt, params.templateVariables, this.#promptSource(params.prompt)));
            const binding = (this.#binding ??= journal.bindAgent(this.#ctx.journalPath, this.#options.configId ?? "", this.#options.label ?? "", record));
            const replayed = journal.replayExecute(binding, record)?.execute;
            if (replayed !== undefined) {
                journal.replayed(this.#ctx, "agent.execute", this.#name, call.n);
                return this.#output({ ...(replayed.text === undefined ? {} : { text: replayed.text }), ...(replayed.value === undefined ? {} : { value: replayed.value }) });
            }
            try {
                return await this.#send(this.#continuing(binding, params), call, signal, onAbort, { journal, binding, record });
            }
            catch (err) {
                journal.recordExecute(binding, record, undefined, toError(err)); // nothing when the result was recorded (a failing onComplete)
                throw err;
            }
        }
        finally {
            signal.removeEventListener("abort", onAbort);
            this.#active = undefined;
        }
    }
    // placed adds the execute's journal key to params, for a host that keys
    // executes by it (an engine that runs executes on other machines,
    // Temporal, keys its record of finished executes by it).
    #placed(params, b, hash) {
        const place = { path: b.path, agent: b.agent, inputSha256: hash, ...(b.configId === "" ? {} : { configId: b.configId }), ...(b.label === "" ? {} : { label: b.label }) };
        return { ...params, place };
    }
    // send makes the execute on the agent host: the harness runs the prompt.
    // In a run with a journal, the call's input is hashed just after the
    // request went out (before it, with the place, for a host that keys
    // executes), and its result recorded once it validated, before
    // onComplete.
    async #send(params, call, signal, onAbort, journalled) {
        const host = agentHostFor(this.#ctx);
        this.#host = host;
        signal.addEventListener("abort", onAbort, { once: true });
        let init;
        try {
            init = await host.ready;
        }
        catch (err) {
            throw this.#hostError(err, call);
        }
        // Registered only on an initialized host: close() then has a session
        // to release, and a host that failed to initialize (a bad settings
        // file) is not asked to close what it never opened.
        host.agents.set(this.#id, this);
        let result;
        try {
            const placed = journalled !== undefined && init.keysExecutes === true ? this.#placed(params, journalled.binding, journalled.record.hash) : params;
            const answer = host.call(Methods.agentExecute, placed);
            journalled?.record.hashed();
            result = (await answer);
        }
        catch (err) {
            throw this.#hostError(err, call);
        }
        const value = this.#output(result);
        journalled?.journal.recordExecute(journalled.binding, journalled.record, result);
        if (this.#hooks.onComplete !== undefined) {
            await this.#runHook("onComplete", () => this.#hooks.onComplete());
        }
        return value;
    }
    // settingsHash hashes, once per object, what its executes share: with
    // the call's number, prompt and template variables it is what the
    // journal hashes of an execute (everything it sends but the IDs that
    // change with every execution, plus the workflow.yaml configuration it
    // names: the host resolves it, so it is not in params).
    #settingsHash() {
        if (this.#settings === undefined) {
            const { agentId: _agentId, executionId: _executionId, cwd: _cwd, workflow, ...rest } = this.#params();
            const configId = this.#options.configId;
            const yaml = configId === undefined ? undefined : this.#ctx.config.agents[configId];
            // The system prompt's file, read once per session as the host reads it.
            const promptFiles = promptFilesDigest(workflow.dir, [rest, yaml]);
            this.#settings = inputHash({ ...rest, workflow: workflow.name, yaml, ...(promptFiles === undefined ? {} : { promptFiles }) });
        }
        return this.#settings;
    }
    // promptSource is the digest of what a prompt that is not text names,
    // which the host reads: its file or template's contents, or the named
    // configuration (its prompt and template variables, as workflow.yaml
    // and the overrides give them) with its files.
    #promptSource(prompt) {
        if (typeof prompt === "string") {
            return undefined;
        }
        const dir = this.#params().workflow.dir;
        if ("configId" in prompt) {
            const named = [this.#ctx.config.agents[prompt.configId], this.#ctx.overrides.agents];
            return inputHash({ named, files: promptFilesDigest(dir, named) });
        }
        return promptFilesDigest(dir, [prompt]);
    }
    // continuing is params of the object's first real execute after calls
    // answered from the journal: it asks the host to continue the harness
    // conversation those calls had (the host says in the run's events
    // whether the harness could).
    #continuing(binding, params) {
        if (binding.replayed === 0 || binding.continued === true) {
            return params;
        }
        binding.continued = true;
        if (binding.session === undefined) {
            this.#ctx.host.warn(`agent "${this.#name}" in workflow "${this.#ctx.workflow}": its first ${binding.replayed} execute(s) were answered from the journal, which names no harness session to continue; it starts a new conversation`);
            return params;
        }
        const transcript = binding.transcript === undefined ? {} : { transcript: binding.transcript };
        return { ...params, continue: { session: binding.session, calls: binding.replayed, ...transcript } };
    }
    cancel() {
        if (this.#host === undefined || this.#closed) {
            return; // never executed: no harness session, nothing runs
        }
        // Without a running execute, naming the last call makes the host stop
        // the background work (shells, subagents) earlier prompts started.
        const signal = this.#ctx.signal;
        const orphaned = signal.aborted && isOrphanedCancellation(signal.reason);
        this.#host.notify(Methods.agentCancel, { agentId: this.#id, call: this.#active?.n ?? this.#calls, ...(orphaned ? { orphaned } : {}) });
    }
    /**
     * Closes the agent before its execution ends. A failure to close is a
     * warning, as it is when the execution closes its resources: the call's
     * own result or error stands.
     */
    async closeEarly() {
        this.#ctx.unregister(this);
        try {
            await this.close();
        }
        catch (err) {
            this.#ctx.host.warn(`workflow "${this.#ctx.workflow}" (${this.#ctx.executionId}): closing agent "${this.#name}" failed: ${toError(err).message}`);
        }
    }
    /** Cleanup (the execution context calls it): closes the harness session. */
    async close() {
        if (this.#closed) {
            return;
        }
        this.#closed = true;
        const host = this.#host ?? existingAgentHost(this.#ctx);
        if (host === undefined || !host.agents.has(this.#id)) {
            return; // never executed: nothing to release
        }
        try {
            await host.call(Methods.agentClose, { agentId: this.#id });
        }
        catch (err) {
            if (err instanceof HostError) {
                throw new AgentExecutionError(this.#name, `closing agent "${this.#name}" failed: ${err.message}`, { cause: err });
            }
            // The host is gone (or shutting down): its exit closed every session.
        }
        finally {
            host.agents.delete(this.#id);
        }
    }
    async handleHook(method, params) {
        const call = this.#active;
        try {
            switch (method) {
                case Methods.hookBeforeToolCall: {
                    const p = params;
                    const input = (p.input ?? {});
                    const res = await this.#inContext(() => this.#hooks.beforeToolCall?.({ toolCallId: p.toolCallId, toolName: p.toolName, input }));
                    return res ?? null;
                }
                case Methods.hookAfterToolCall: {
                    const p = params;
                    const result = { toolCallId: p.toolCallId, toolName: p.toolName, input: (p.input ?? {}) };
                    if ("output" in p)
                        result.output = p.output;
                    if (p.error !== undefined)
                        result.error = p.error;
                    const res = await this.#inContext(() => this.#hooks.afterToolCall?.(result));
                    return res ?? null;
                }
                case Methods.hookOnStart:
                    await this.#inContext(() => this.#hooks.onStart?.());
                    return null;
            }
            throw new Error(`unknown host request ${method}`);
        }
        catch (err) {
            if (call !== undefined && call.hookError === undefined) {
                call.hookError = err;
            }
            throw err;
        }
    }
    /** The parts of agent.execute that do not change between calls. */
    #params() {
        if (this.#wire !== undefined) {
            return this.#wire;
        }
        const { hooks, outputSchema, label, ...fields } = this.#options;
        if (label !== undefined && (typeof label !== "string" || label === "" || label.includes("#"))) {
            throw new AgentConfigurationError(this.#name, `agent "${this.#name}": label must be a non-empty string without "#"`);
        }
        for (const key of Object.keys(hooks ?? {})) {
            if (!hookNames.includes(key) || typeof hooks[key] !== "function") {
                throw new AgentConfigurationError(this.#name, `agent "${this.#name}": hooks.${key} must be one of the functions ${hookNames.join(", ")}`);
            }
        }
        let schema;
        if (outputSchema !== undefined) {
            try {
                schema = toJSONSchema(outputSchema, { io: "output" });
            }
            catch (err) {
                throw new AgentConfigurationError(this.#name, `agent "${this.#name}": outputSchema cannot be converted to JSON Schema: ${toError(err).message}`, { cause: err });
            }
        }
        const entry = this.#ctx.host.workflows[this.#ctx.workflow];
        if (entry === undefined) {
            throw new AgentConfigurationError(this.#name, `agent "${this.#name}": workflow "${this.#ctx.workflow}" is not in the runtime's workflow table`);
        }
        const overrides = this.#ctx.overrides.agents === undefined ? undefined : { agents: this.#ctx.overrides.agents };
        this.#wire = {
            agentId: this.#id,
            name: this.#name,
            ...(label === undefined ? {} : { label }),
            executionId: this.#ctx.executionId,
            workflow: { name: this.#ctx.workflow, dir: entry.dir },
            cwd: process.cwd(),
            ...(overrides === undefined ? {} : { overrides: overrides }),
            config: fields,
            hooks: hostHooks.filter((h) => typeof hooks?.[h] === "function"),
            ...(schema === undefined ? {} : { outputSchema: schema }),
        };
        return this.#wire;
    }
    #output(result) {
        const schema = this.#options.outputSchema;
        if (schema === undefined) {
            return result.text ?? "";
        }
        const parsed = safeParse(schema, result.value);
        if (!parsed.success) {
            const issues = toIssues(parsed.error.issues);
            throw new StructuredOutputError(this.#name, `agent "${this.#name}" returned output that does not match its outputSchema: ${issueText(issues)}`, { details: { issues } });
        }
        return parsed.data;
    }
    /** Maps a failed agent.execute to the SDK's typed error. */
    #hostError(err, call) {
        if (!(err instanceof HostError)) {
            return err instanceof StratosError ? err : new AgentExecutionError(this.#name, `agent "${this.#name}": ${toError(err).message}`, { cause: err });
        }
        const code = err.data?.code ?? "internal";
        const details = err.data?.details ?? {};
        if (err.rpcCode === RPCInvalidRequest) {
            // A request the SDK did not send, too large for the host: say whose.
            return agentErrorFor("protocol", this.#name, `agent "${this.#name}": ${err.message}`, details);
        }
        switch (code) {
            case "cancelled":
                return new CancelledError(err.message, { cause: this.#ctx.signal.aborted ? this.#ctx.signal.reason : undefined });
            case "context_closed":
                return new ContextClosedError(`agent "${this.#name}".execute()`, this.#ctx.workflow, this.#ctx.executionId, "closed");
            case "hook_failed":
                return new AgentHookError(this.#name, err.message, { cause: call.hookError, details });
        }
        if (!isAgentErrorCode(code)) {
            // The host and the SDK ship together, so this is a bug: keep the code in the details.
            return new AgentExecutionError(this.#name, err.message, { details: { ...details, hostCode: code }, code: "internal" });
        }
        return agentErrorFor(code, this.#name, err.message, details);
    }
    async #runHook(name, fn) {
        try {
            await this.#inContext(fn);
        }
        catch (err) {
            throw new AgentHookError(this.#name, `${name} hook of agent "${this.#name}" failed: ${toError(err).message}`, { cause: err });
        }
    }
    async #onError(err) {
        const onError = this.#hooks.onError;
        if (onError === undefined || err instanceof ContextClosedError) {
            return err;
        }
        try {
            await this.#inContext(() => onError(err));
        }
        catch (hookErr) {
            return new AggregateError([err, hookErr], `agent "${this.#name}": ${err.message}; then its onError hook failed: ${toError(hookErr).message}`);
        }
        return err;
    }
    /** Runs an author callback in the agent's own execution context. */
    #inContext(fn) {
        return contextStorage().run(this.#ctx, async () => await fn());
    }
}
