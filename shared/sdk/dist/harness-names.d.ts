/** The name of a harness Stratos ships: what an agent's harness takes. */
export type HarnessName = "claude-code" | "codex" | "gemini" | "opencode" | "test";
