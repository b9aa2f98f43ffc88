// Package qwen is the qwen harness: Qwen Code (@qwen-code/qwen-code)
// driven over the Agent Client Protocol (`qwen --acp`) by package acp,
// with a private configuration per session (its own QWEN_HOME, system
// settings and temporary directory: the user's ~/.qwen settings,
// extensions, MCP servers, memories and login never leak in), the system
// prompt as the CLI's system-prompt file (QWEN_SYSTEM_MD), and
// OpenAI-compatible authentication detected from variable names, never
// their values. docs/harness-qwen.md is its page.
package qwen
