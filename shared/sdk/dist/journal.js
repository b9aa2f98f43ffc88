// The durable-run journal, the runtime's side: every side effect the
// runtime performs for workflow code (an agent execute, a child workflow,
// a budget reading) is appended to the run record's journal.jsonl as it
// finishes, written in the turn of the event loop in which the call's
// result reaches workflow code, so that a crash of any process loses at
// most the calls in flight. The file is synced to disk within a second,
// and once more when the run ends: a sync before each result would cost more than a scripted
// call itself (2 ms measured here), while only a crash of the machine can
// lose lines the kernel already holds. When `stratos runs resume`
// hands the runtime the entries of an earlier execution, each call whose
// place and input match an entry is answered from it instead of being made
// again, and copied into this execution's journal (marked replayed), so the
// newest journal alone is enough to resume from.
//
// A call's place is where it happened, never when: the invocation path
// (the top-level workflow, then "<child>#<k>" per child level), the
// agent's configuration, label and object number, and the call's ordinal;
// plus the SHA-256 of its input in canonical JSON. Agent objects and
// children of one place (a fan-out) are matched as a multiset, by the hash
// of their first input, so fan-outs replay in whatever order they start.
//
// The entries' shapes are the Go package journalapi's (shared/contract),
// which stratos run reads them with.
import * as crypto from "node:crypto";
import { createHash } from "node:crypto";
import { fdatasync, fdatasyncSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
/** The journal format version every line carries (journalapi.Version). */
export const journalVersion = 1;
const journalFile = "journal.jsonl";
// How long a written line may wait for its sync to disk (see Journal.#sync).
const syncDelayMs = 1000;
// exchangeOf is a replayed execute as a new session's first prompt
// carries it: its prompt and its reply (a value as its JSON).
function exchangeOf(e, prompt) {
    return { call: e.call, prompt, reply: e.text ?? JSON.stringify(e.value ?? null) };
}
/** The hex SHA-256 of value's canonical JSON (object keys sorted). @internal */
export function inputHash(value) {
    return sha256Hex(fastCanonicalJSON(value) ?? canonicalJSON(value) ?? "null");
}
/**
 * An execute's input hash: inputHash({ settings, call, prompt,
 * promptSource, templateVariables }), whose canonical JSON is written here
 * without building and sorting that object (its keys' order is known), so
 * a journal's hashes do not change. promptSource is the digest of what a
 * prompt that is not text names (a file's contents, a configuration),
 * undefined for a text prompt. @internal
 */
export function executeInputHash(settings, call, prompt, templateVariables, promptSource) {
    const c = fastCanonicalJSON(call);
    const p = fastCanonicalJSON(prompt);
    const t = fastCanonicalJSON(templateVariables);
    if (c === null || c === undefined || p === null || t === null) {
        return inputHash({ settings, call, prompt, promptSource, templateVariables });
    }
    // The keys sorted; an undefined member is left out, as JSON.stringify leaves it.
    const f = promptSource === undefined ? "" : `,"promptSource":${JSON.stringify(promptSource)}`;
    return sha256Hex(`{"call":${c}${p === undefined ? "" : `,"prompt":${p}`}${f},"settings":${JSON.stringify(settings)}${t === undefined ? "" : `,"templateVariables":${t}`}}`);
}
function sha256Hex(text) {
    // The one-shot hash skips a Hash object's set-up (Node.js 21.7 and later).
    return oneShotHash === undefined ? createHash("sha256").update(text).digest("hex") : oneShotHash("sha256", text, "hex");
}
const oneShotHash = crypto.hash;
// fastCanonicalJSON is canonicalJSON's text for the values calls are made
// with — strings, finite numbers, booleans, null, arrays and plain objects
// — written in one pass instead of through JSON.stringify's replacer, which
// copied every object to sort it (hashing an execute's input was a third
// of the journal's cost per execute). It returns null for anything else
// (toJSON, other classes, keys an object would reorder or drop), which
// canonicalJSON then writes: a hash never depends on which of the two wrote
// its text, so journals written before this resume alike.
function fastCanonicalJSON(value) {
    switch (typeof value) {
        case "string":
            return JSON.stringify(value);
        case "number":
            return Number.isFinite(value) ? String(value) : null;
        case "boolean":
            return value ? "true" : "false";
        case "undefined":
            return undefined;
        case "object":
            break;
        default:
            return null;
    }
    if (value === null) {
        return "null";
    }
    if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) {
            return null;
        }
        const parts = [];
        for (let i = 0; i < value.length; i++) {
            const v = value[i];
            const text = fastCanonicalJSON(v);
            if (text === null) {
                return null;
            }
            parts.push(text ?? "null");
        }
        return `[${parts.join(",")}]`;
    }
    const proto = Object.getPrototypeOf(value);
    if ((proto !== Object.prototype && proto !== null) || typeof value.toJSON === "function") {
        return null;
    }
    const keys = Object.keys(value).sort();
    const parts = [];
    for (const k of keys) {
        // An index-like key is enumerated before the others by JSON.stringify,
        // and __proto__ is not copied by canonicalJSON: leave those to it.
        if (k === "__proto__" || indexLike.test(k)) {
            return null;
        }
        const text = fastCanonicalJSON(value[k]);
        if (text === null) {
            return null;
        }
        if (text !== undefined) {
            parts.push(`${JSON.stringify(k)}:${text}`);
        }
    }
    return `{${parts.join(",")}}`;
}
const indexLike = /^(?:0|[1-9][0-9]*)$/;
function canonicalJSON(value) {
    return JSON.stringify(value, (_key, v) => {
        if (v === null || typeof v !== "object" || Array.isArray(v)) {
            return v;
        }
        const sorted = {};
        for (const k of Object.keys(v).sort()) {
            sorted[k] = v[k];
        }
        return sorted;
    });
}
/**
 * An execute's entry in the making: its call number and the hash of its
 * input, computed when first asked for. A resumed run asks before the
 * request goes out (the hash matches the call to the journal's), and so
 * does a host that keys executes by their place (Temporal); otherwise the
 * runtime asks just after the request went out (hashed()), while the host
 * works on the call: the hash then costs the call nothing, and it is still
 * of what was sent, since no workflow code runs between the two. @internal
 */
export class ExecuteRecord {
    call;
    #compute;
    #hash;
    /** Whether the execute's entry is queued (its result or error is final). */
    recorded = false;
    /** hash computes the input's hash (executeInputHash). */
    constructor(call, hash) {
        this.call = call;
        this.#compute = hash;
    }
    get hash() {
        return (this.#hash ??= this.#compute());
    }
    /**
     * Computes the hash now: the request has gone out, the host works on
     * it. It does not throw: an input JSON cannot encode failed the request
     * already, and the hash's own error is thrown where the entry asks for it.
     */
    hashed() {
        try {
            this.#hash ??= this.#compute();
        }
        catch {
            // thrown again by the getter, when the failed call's entry is recorded
        }
    }
}
// placeKey joins the parts of a place into one map key that no other
// parts give (names may hold any character).
function placeKey(...parts) {
    return JSON.stringify(parts);
}
/** The journal path of child name's k-th invocation under parent (journalapi.ChildPath). */
export function childPath(parent, name, k) {
    return `${parent}/${name}#${k}`;
}
/**
 * One run's journal: the writer of this execution's entries and, on
 * resume, the index of the earlier execution's. @internal
 */
export class Journal {
    #file;
    #warn;
    #fd;
    #failed = false;
    #replay;
    #from;
    constructor(runDir, warn, replay) {
        this.#file = runDir === undefined ? undefined : join(runDir, journalFile);
        this.#warn = warn;
        this.#replay = replay === undefined ? undefined : new ReplayIndex(replay.entries);
        this.#from = replay?.from ?? "";
    }
    /** Records in the run's events that ctx's call was answered from the journal. */
    replayed(ctx, call, name, number) {
        ctx.host.progress?.({ type: "call.replayed", executionId: ctx.executionId, workflow: ctx.workflow, details: { call, path: ctx.journalPath, name, number, from: this.#from } });
    }
    /** Whether an earlier execution's entries are being replayed. */
    get resuming() {
        return this.#replay !== undefined;
    }
    /** The first divergence of each invocation that had one. */
    divergences() {
        return this.#replay?.divergences ?? [];
    }
    /** How many calls were answered from the journal. */
    replayedCalls() {
        return this.#replay?.served ?? 0;
    }
    /** What the replayed executes cost when they were made (nothing now). */
    replayedUsage() {
        return { ...this.#replayedUsage };
    }
    #replayedUsage = { tokens: 0, usd: 0, turns: 0, unknownCostTurns: 0 };
    /**
     * Binds a new agent object to its journal agent, at its first execute:
     * an unclaimed agent of the same configuration and label whose first
     * call had the same input, or else a fresh number.
     */
    bindAgent(path, configId, label, first) {
        // Only a resumed run asks for the first call's hash here.
        return this.#replay?.bindAgent(path, configId, label, first.hash) ?? { path, configId, label, agent: this.#fresh(placeKey("agent", path, configId, label)), replaying: false, replayed: 0 };
    }
    /** The journal's result of the binding's call, when it may answer it. */
    replayExecute(b, record) {
        const e = this.#replay?.execute(b, record.call, record.hash);
        if (e !== undefined) {
            b.replayed++;
            if (e.execute?.session !== undefined) {
                b.session = e.execute.session;
            }
            if (e.execute?.prompt !== undefined) {
                (b.transcript ??= []).push(exchangeOf(e.execute, e.execute.prompt));
            }
            addUsage(this.#replayedUsage, e.execute?.usage);
            this.#append({ ...e, at: new Date().toISOString(), replayed: true });
        }
        return e;
    }
    /**
     * Records a finished execute, once (a later call for the same record is
     * ignored). A text result's entry is built when the line is written, in
     * the turn's check phase (see #append): everything in it is the host's
     * answer, which workflow code never holds, or immutable; a value, which
     * workflow code may change, and an error are taken now.
     */
    recordExecute(b, record, result, error) {
        if (record.recorded) {
            return;
        }
        record.recorded = true;
        const at = Date.now();
        const hash = record.hash;
        if (error === undefined && result !== undefined && result.value === undefined) {
            this.#appendLine(() => executeLine(at, b, record.call, hash, result));
        }
        else {
            this.#append(executeEntry(at, b, record.call, hash, result, error));
        }
    }
    /** Places a child invocation and records its start. */
    startChild(parent, name, hash) {
        const place = this.#replay?.child(parent, name, hash) ?? { path: "", k: this.#fresh(placeKey("child", parent, name)) };
        place.path = childPath(parent, name, place.k);
        this.#append({ v: journalVersion, kind: "child.started", at: new Date().toISOString(), path: parent, inputSha256: hash, child: { name, k: place.k } });
        if (place.completed !== undefined) {
            this.#append({ ...place.completed, at: new Date().toISOString(), replayed: true });
        }
        return place;
    }
    /** Records how a child ended. */
    endChild(parent, name, place, status, output, error) {
        const child = { name, k: place.k, status };
        if (error !== undefined) {
            child.error = errorOf(error);
        }
        else {
            child.output = output ?? null;
        }
        this.#append({ v: journalVersion, kind: "child.completed", at: new Date().toISOString(), path: parent, child });
    }
    /**
     * Places a direct MCP tool call of the invocation at path: the journal's
     * unclaimed call of that server and tool with the same input answers it
     * when it succeeded.
     */
    placeMcpCall(path, server, tool, hash) {
        const place = this.#replay?.mcpCall(path, server, tool, hash) ?? { k: this.#fresh(placeKey("mcp", path, server, tool)) };
        if (place.replayed !== undefined) {
            this.#append({ ...place.replayed, at: new Date().toISOString(), replayed: true });
        }
        return place;
    }
    /** Records a finished direct MCP tool call. */
    recordMcpCall(path, server, tool, place, hash, result, error) {
        const mcp = { server, tool, k: place.k };
        if (error !== undefined) {
            mcp.error = errorOf(error);
        }
        else {
            mcp.result = result ?? null;
        }
        this.#append({ v: journalVersion, kind: "mcp.call", at: new Date().toISOString(), path, inputSha256: hash, mcp });
    }
    /**
     * Places a decision of the invocation at path: the journal's unclaimed
     * decision there with the same input answers it when it succeeded.
     */
    placeDecision(path, hash) {
        const place = this.#replay?.decision(path, hash) ?? { k: this.#fresh(`decision ${path}`) };
        if (place.replayed !== undefined) {
            addUsage(this.#replayedUsage, place.replayed.decision?.result?.usage);
            this.#append({ ...place.replayed, at: new Date().toISOString(), replayed: true });
        }
        return place;
    }
    /** Records a finished decision. */
    recordDecision(path, place, hash, result, error) {
        const decision = { k: place.k };
        if (error !== undefined) {
            decision.error = errorOf(error);
        }
        else if (result !== undefined) {
            decision.result = result;
        }
        this.#append({ v: journalVersion, kind: "decision.call", at: new Date().toISOString(), path, inputSha256: hash, decision });
    }
    /** A budget reading of ctx's invocation: the journal's, while it may answer, else read() recorded. */
    readBudget(ctx, read) {
        const path = ctx.journalPath;
        // Readings have no input: their ordinal in the invocation is their place.
        const ordinal = (this.#counters.get(placeKey("budget", path)) ?? 0) + 1;
        this.#counters.set(placeKey("budget", path), ordinal);
        const e = this.#replay?.budget(path, ordinal);
        const spent = e?.budget === undefined ? read() : { tokens: e.budget.tokens, usd: e.budget.usd, turns: e.budget.turns, unknownCostTurns: e.budget.unknownCostTurns };
        const { tokens, usd, turns, unknownCostTurns } = spent;
        if (e !== undefined) {
            this.replayed(ctx, "budget.read", "", ordinal);
        }
        this.#append({ v: journalVersion, kind: "budget.read", at: new Date().toISOString(), path, ...(e === undefined ? {} : { replayed: true }), budget: { ordinal, tokens, usd, turns, unknownCostTurns } });
        return spent;
    }
    /**
     * Writes what is queued and syncs the file to disk: the run is ending.
     * Resolves once it is done (a failure is a warning, like any other).
     */
    async flush() {
        this.#writeQueued();
        if (this.#fd === undefined || this.#failed) {
            return;
        }
        try {
            fdatasyncSync(this.#fd);
        }
        catch (err) {
            this.#fail(err);
        }
    }
    #counters = new Map();
    // fresh numbers places that replay nothing: past every number the
    // journal being replayed used there, so no entry's place repeats.
    #fresh(key) {
        const n = Math.max(this.#counters.get(key) ?? 0, this.#replay?.highest(key) ?? 0) + 1;
        this.#counters.set(key, n);
        this.#replay?.reserve(key, n);
        return n;
    }
    // append queues one line. The queue is written with one synchronous
    // write in the check phase of the same turn of node's event loop
    // (setImmediate): after the microtasks that deliver the call's result to
    // workflow code, and with them the request of the workflow's next call,
    // have run, and before node handles any other I/O. So the write costs the
    // call nothing (its result is already delivered) and overlaps the host's
    // work on the next call, the lines of one turn (a fan-out's results) go
    // out in one write, and no later result is seen before the line is in
    // the kernel: a crash of node loses at most the call in flight. Writes on
    // the thread pool, one promise each, had cost the scripted execute more
    // of node's two cores than the write itself. An entry given as a
    // function is built then too, so that building it costs the call nothing
    // either; it must hold nothing workflow code can change in the meantime.
    // A journal that cannot be written is a warning, once: the run goes on,
    // without resume past that point.
    #append(entry) {
        this.#appendLine(JSON.stringify(entry) + "\n");
    }
    // appendLine queues a line, or a function that writes one when the queue
    // is written (see append).
    #appendLine(line) {
        if (this.#file === undefined || this.#failed) {
            return;
        }
        try {
            this.#fd ??= openSync(this.#file, "a");
        }
        catch (err) {
            this.#fail(err);
            return;
        }
        this.#queue.push(line);
        if (!this.#scheduled) {
            this.#scheduled = true;
            setImmediate(() => this.#writeQueued());
        }
    }
    // Lines, or functions that write a line when the queue is written.
    #queue = [];
    #scheduled = false;
    // writeQueued writes the queue in one write (more if the kernel takes
    // part of it) and has it synced within syncDelayMs.
    #writeQueued() {
        this.#scheduled = false;
        if (this.#queue.length === 0 || this.#fd === undefined || this.#failed) {
            return;
        }
        let text = "";
        for (const line of this.#queue) {
            text += typeof line === "string" ? line : line();
        }
        this.#queue = [];
        try {
            // The text itself, not a Buffer of it: node encodes a short string
            // on its own stack. The kernel may take less than all of it (a full
            // disk): the rest then goes as bytes.
            const wrote = writeSync(this.#fd, text);
            if (wrote !== Buffer.byteLength(text)) {
                const data = Buffer.from(text);
                for (let off = wrote; off < data.length;) {
                    off += writeSync(this.#fd, data, off, data.length - off);
                }
            }
        }
        catch (err) {
            this.#fail(err);
            return;
        }
        this.#sync();
    }
    #syncing = false;
    #unsynced = false;
    // sync has the lines written so far synced to disk within syncDelayMs:
    // one background sync at a time, at most one a second, each covering
    // every line written before it starts. Syncing more often slowed every
    // execute of scripted agents threefold here (the disk's journal commits
    // stall the other writers of the run); a crash of the machine may lose
    // the last second's lines, whose calls then run again on resume.
    #sync() {
        this.#unsynced = true;
        if (this.#syncing || this.#fd === undefined) {
            return;
        }
        this.#syncing = true;
        const timer = setTimeout(() => {
            this.#unsynced = false;
            if (this.#fd === undefined) {
                this.#syncing = false;
                return;
            }
            fdatasync(this.#fd, (err) => {
                this.#syncing = false;
                if (err !== null) {
                    this.#fail(err);
                }
                else if (this.#unsynced) {
                    this.#sync();
                }
            });
        }, syncDelayMs);
        timer.unref(); // flush() syncs what is left when the run ends
    }
    #fail(err) {
        if (!this.#failed) {
            this.#failed = true;
            this.#warn(`writing the run's journal ${this.#file} failed, so this run cannot be resumed past this point: ${err instanceof Error ? err.message : String(err)}`);
        }
    }
}
/**
 * executeEntry's line for a text result, written without building the
 * entry first: the same JSON, key for key (a node test compares them).
 * @internal
 */
export function executeLine(at, b, call, hash, result) {
    let execute = `{"agent":${b.agent},"call":${call}`;
    if (b.configId !== "") {
        execute += `,"configId":${JSON.stringify(b.configId)}`;
    }
    if (b.label !== "") {
        execute += `,"label":${JSON.stringify(b.label)}`;
    }
    if (result.usage !== undefined) {
        execute += `,"usage":${JSON.stringify(result.usage)}`;
    }
    if (result.session !== undefined) {
        execute += `,"session":${JSON.stringify(result.session)}`;
    }
    if (result.prompt !== undefined) {
        execute += `,"prompt":${JSON.stringify(result.prompt)}`;
    }
    execute += `,"text":${JSON.stringify(result.text ?? "")}}`;
    return `{"v":${journalVersion},"kind":"agent.execute","at":"${new Date(at).toISOString()}","path":${JSON.stringify(b.path)},"inputSha256":${JSON.stringify(hash)},"execute":${execute}}\n`;
}
/** An execute's entry. @internal */
export function executeEntry(at, b, call, hash, result, error) {
    const execute = { agent: b.agent, call, ...(b.configId === "" ? {} : { configId: b.configId }), ...(b.label === "" ? {} : { label: b.label }) };
    if (result?.usage !== undefined) {
        execute.usage = result.usage;
    }
    if (result?.session !== undefined) {
        execute.session = result.session;
    }
    if (result?.prompt !== undefined) {
        execute.prompt = result.prompt;
    }
    if (error !== undefined) {
        execute.error = errorOf(error);
    }
    else if (result?.value !== undefined) {
        execute.value = result.value;
    }
    else {
        execute.text = result?.text ?? "";
    }
    return { v: journalVersion, kind: "agent.execute", at: new Date(at).toISOString(), path: b.path, inputSha256: hash, execute };
}
function addUsage(sum, u) {
    if (u !== undefined) {
        sum.tokens += u.tokens;
        sum.usd = Math.round((sum.usd + u.usd) * 1e10) / 1e10;
        sum.turns += u.turns;
        sum.unknownCostTurns += u.unknownCostTurns;
    }
}
function errorOf(err) {
    const code = err.code;
    return { code: typeof code === "string" ? code : "internal", message: err.message };
}
/** The entries of the execution being resumed, indexed by place. */
class ReplayIndex {
    divergences = [];
    served = 0;
    // Agent objects: "path configId#label" → agent number → call → entry.
    #agents = new Map();
    #claimedAgents = new Set();
    // Children: "path/name" → started entries; completed entries by child path.
    #starts = new Map();
    #completed = new Map();
    #claimedChildren = new Set();
    #budget = new Map();
    // Direct MCP calls: "path server/tool" → entries; claimed by "key k".
    #mcp = new Map();
    #claimedMcp = new Set();
    // Decisions: "decision path" → entries; claimed by "key k".
    #decisions = new Map();
    #claimedDecisions = new Set();
    // The highest number the journal used per counter key (see Journal.#fresh).
    #highest = new Map();
    #diverged = new Set();
    constructor(entries) {
        for (const e of entries) {
            this.#add(e);
        }
    }
    #add(e) {
        const path = e.path ?? "";
        if (e.kind === "agent.execute" && e.execute !== undefined) {
            const key = placeKey("agent", path, e.execute.configId ?? "", e.execute.label ?? "");
            const byAgent = this.#agents.get(key) ?? new Map();
            this.#agents.set(key, byAgent);
            const calls = byAgent.get(e.execute.agent) ?? new Map();
            byAgent.set(e.execute.agent, calls);
            calls.set(e.execute.call, e);
            this.#note(key, e.execute.agent);
        }
        else if (e.kind === "child.started" && e.child !== undefined) {
            const key = placeKey("child", path, e.child.name);
            this.#starts.set(key, [...(this.#starts.get(key) ?? []), e]);
            this.#note(key, e.child.k);
        }
        else if (e.kind === "child.completed" && e.child !== undefined) {
            this.#completed.set(childPath(path, e.child.name, e.child.k), e);
        }
        else if (e.kind === "mcp.call" && e.mcp !== undefined) {
            const key = placeKey("mcp", path, e.mcp.server, e.mcp.tool);
            this.#mcp.set(key, [...(this.#mcp.get(key) ?? []), e]);
            this.#note(key, e.mcp.k);
        }
        else if (e.kind === "decision.call" && e.decision !== undefined) {
            const key = `decision ${path}`;
            this.#decisions.set(key, [...(this.#decisions.get(key) ?? []), e]);
            this.#note(key, e.decision.k);
        }
        else if (e.kind === "budget.read" && e.budget !== undefined) {
            this.#budget.set(placeKey(path, e.budget.ordinal), e);
        }
    }
    #note(key, n) {
        this.#highest.set(key, Math.max(this.#highest.get(key) ?? 0, n));
    }
    highest(key) {
        return this.#highest.get(key) ?? 0;
    }
    reserve(key, n) {
        this.#note(key, n);
    }
    bindAgent(path, configId, label, firstHash) {
        const key = placeKey("agent", path, configId, label);
        const candidates = [...(this.#agents.get(key) ?? new Map()).entries()]
            .filter(([n]) => !this.#claimedAgents.has(placeKey(key, n)))
            .sort(([a], [b]) => a - b);
        if (this.#diverged.has(path) || candidates.length === 0) {
            return undefined;
        }
        const match = candidates.find(([, calls]) => calls.get(1)?.inputSha256 === firstHash);
        if (match === undefined) {
            this.#diverge(path, `agent "${agentText(configId, label)}" call 1`, "its first prompt differs from every journalled agent of its configuration and label");
            return undefined;
        }
        this.#claimedAgents.add(placeKey(key, match[0]));
        return { path, configId, label, agent: match[0], replaying: true, replayed: 0 };
    }
    execute(b, call, hash) {
        if (!b.replaying) {
            return undefined;
        }
        const e = this.#agents.get(placeKey("agent", b.path, b.configId, b.label))?.get(b.agent)?.get(call);
        if (this.#diverged.has(b.path) || e === undefined || e.inputSha256 !== hash || e.execute?.error !== undefined) {
            b.replaying = false;
            if (e !== undefined && e.inputSha256 !== hash && !this.#diverged.has(b.path)) {
                this.#diverge(b.path, `agent "${agentText(b.configId, b.label)}" (object ${b.agent}) call ${call}`, "its input differs from the journal's");
            }
            return undefined;
        }
        this.served++;
        return e;
    }
    child(parent, name, hash) {
        const key = placeKey("child", parent, name);
        const starts = (this.#starts.get(key) ?? []).filter((e) => !this.#claimedChildren.has(childPath(parent, name, e.child.k)));
        if (this.#diverged.has(parent) || starts.length === 0) {
            return undefined;
        }
        const match = starts.find((e) => e.inputSha256 === hash);
        if (match === undefined) {
            this.#diverge(parent, `child workflow "${name}"`, "its input differs from every journalled invocation of it");
            return undefined;
        }
        const path = childPath(parent, name, match.child.k);
        this.#claimedChildren.add(path);
        const done = this.#completed.get(path);
        if (done?.child?.status === "succeeded") {
            this.served++;
            return { path, k: match.child.k, completed: done };
        }
        return { path, k: match.child.k };
    }
    mcpCall(path, server, tool, hash) {
        const key = placeKey("mcp", path, server, tool);
        const open = (this.#mcp.get(key) ?? []).filter((e) => !this.#claimedMcp.has(placeKey(key, e.mcp.k)));
        if (this.#diverged.has(path) || open.length === 0) {
            return undefined;
        }
        // A call that succeeded answers; one that failed only fixes the place (the call runs again).
        const match = open.find((e) => e.inputSha256 === hash && e.mcp?.error === undefined) ?? open.find((e) => e.inputSha256 === hash);
        if (match === undefined) {
            this.#diverge(path, `MCP tool "${tool}" of server "${server}"`, "its arguments differ from every journalled call of that tool");
            return undefined;
        }
        this.#claimedMcp.add(placeKey(key, match.mcp.k));
        if (match.mcp?.error !== undefined) {
            return { k: match.mcp.k };
        }
        this.served++;
        return { k: match.mcp.k, replayed: match };
    }
    decision(path, hash) {
        const key = `decision ${path}`;
        const open = (this.#decisions.get(key) ?? []).filter((e) => !this.#claimedDecisions.has(`${key} ${e.decision.k}`));
        if (this.#diverged.has(path) || open.length === 0) {
            return undefined;
        }
        // An answer replays; a failure only fixes the place (the decision is asked again).
        const match = open.find((e) => e.inputSha256 === hash && e.decision?.result !== undefined) ?? open.find((e) => e.inputSha256 === hash);
        if (match === undefined) {
            this.#diverge(path, "a decision", "its question or configuration differs from every journalled decision of this invocation");
            return undefined;
        }
        this.#claimedDecisions.add(`${key} ${match.decision.k}`);
        if (match.decision?.result === undefined) {
            return { k: match.decision.k };
        }
        this.served++;
        return { k: match.decision.k, replayed: match };
    }
    budget(path, ordinal) {
        if (this.#diverged.has(path)) {
            return undefined;
        }
        const e = this.#budget.get(placeKey(path, ordinal));
        if (e !== undefined) {
            this.served++;
        }
        return e;
    }
    // diverge ends replay in the invocation at path: later calls there may
    // depend on what the diverging call changes. The first divergence of an
    // invocation is the one reported.
    #diverge(path, call, reason) {
        if (!this.#diverged.has(path)) {
            this.#diverged.add(path);
            this.divergences.push({ path, call, reason });
        }
    }
}
function agentText(configId, label) {
    return configId !== "" && label !== "" ? `${configId}#${label}` : configId || label || "(unnamed)";
}
