/** The name of a harness Stratos ships: what an agent's harness takes. */
export type HarnessName = "acp" | "claude-code" | "codex" | "gemini" | "opencode" | "qwen" | "test";
