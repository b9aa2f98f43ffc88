// Invocation configuration: a workflow's own workflow.yaml sections (agents,
// decision) with invocation overrides merged over them field by field. Each
// invocation resolves its own: a child never inherits its parent's.
import { StratosError } from "./errors.js";
function isRecord(value) {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}
/**
 * Checks the shape of an overrides value: an object with only `agents` (an
 * object of objects) and `decision` (an object). Returns a description of the
 * first problem, or "" when it is fine. @internal
 */
export function overridesProblem(value) {
    if (value === undefined || value === null) {
        return "";
    }
    if (!isRecord(value)) {
        return "must be an object with optional fields agents and decision";
    }
    for (const key of Object.keys(value)) {
        if (key !== "agents" && key !== "decision") {
            return `unknown field "${key}" (allowed: agents, decision)`;
        }
    }
    if (value.agents !== undefined) {
        if (!isRecord(value.agents)) {
            return `"agents" must be an object mapping agent configuration ids to objects`;
        }
        for (const [id, agent] of Object.entries(value.agents)) {
            if (!isRecord(agent)) {
                return `"agents.${id}" must be an object of agent settings`;
            }
        }
    }
    if (value.decision !== undefined && !isRecord(value.decision)) {
        return `"decision" must be an object`;
    }
    return "";
}
/**
 * Resolves a workflow's configuration: its workflow.yaml sections with
 * overrides merged per agent id and per decision field. `manifest` names the
 * workflow.yaml in errors. @internal
 */
export function resolveConfig(sections, overrides, manifest) {
    const agentsBase = sections?.agents ?? {};
    const decisionBase = sections?.decision ?? {};
    if (!isRecord(agentsBase) || Object.values(agentsBase).some((a) => a !== null && !isRecord(a))) {
        throw new StratosError("config_invalid", `${manifest}: "agents" must be a mapping of agent configuration ids to mappings of settings`, {
            details: { manifest, field: "agents" },
        });
    }
    if (!isRecord(decisionBase)) {
        throw new StratosError("config_invalid", `${manifest}: "decision" must be a mapping`, { details: { manifest, field: "decision" } });
    }
    // "configId#label" targets the agents of configId with that label.
    const unknown = Object.keys(overrides?.agents ?? {})
        .filter((id) => !Object.hasOwn(agentsBase, configPart(id)))
        .sort();
    if (unknown.length > 0) {
        const known = Object.keys(agentsBase).sort();
        throw new StratosError("config_invalid", `overrides name agent configuration ${unknown.map((id) => `"${id}"`).join(", ")}, which ${manifest} does not declare (known: ${known.join(", ") || "none"})`, { details: { manifest, unknown, known } });
    }
    const agents = {};
    for (const [id, agent] of Object.entries(agentsBase)) {
        agents[id] = { ...(agent ?? {}) };
    }
    for (const [id, agent] of Object.entries(overrides?.agents ?? {})) {
        if (configPart(id) === id) {
            agents[id] = mergeFields(agents[id] ?? {}, agent);
        }
    }
    const decision = mergeFields({ ...decisionBase }, overrides?.decision ?? {});
    return deepFreeze({ agents, decision });
}
/** The configId of an override target ("judge" of "judge#r1-3"). @internal */
export function configPart(target) {
    const i = target.indexOf("#");
    return i < 0 ? target : target.slice(0, i);
}
// mergeFields sets each field of over that has a value; unspecified fields
// keep the base's.
function mergeFields(base, over) {
    const out = { ...base };
    for (const [k, v] of Object.entries(over)) {
        if (v !== undefined) {
            out[k] = v;
        }
    }
    return out;
}
/** Freezes value and everything it holds; returns it. @internal */
export function deepFreeze(value) {
    if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
        Object.freeze(value);
        for (const v of Object.values(value)) {
            deepFreeze(v);
        }
    }
    return value;
}
/** A deep copy of JSON-like data (so that later mutation by the caller cannot leak in). @internal */
export function cloneData(value) {
    return value === undefined ? value : structuredClone(value);
}
