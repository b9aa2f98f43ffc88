// Package gemini is the gemini harness: Gemini CLI (@google/gemini-cli)
// driven over the Agent Client Protocol (`gemini --acp`) by package acp,
// with a private configuration per session (its own GEMINI_CLI_HOME,
// system settings and temporary directory: the user's settings,
// extensions, MCP servers and login never leak in), the system prompt as
// the CLI's system-prompt file (GEMINI_SYSTEM_MD), and API-key or Vertex
// AI authentication detected from variable names, never their values.
// docs/harness-gemini.md is its page.
package gemini
