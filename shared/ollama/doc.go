// Package ollama is what Stratos knows about a local Ollama server, shared
// by every harness adapter that can reach one (Codex, OpenCode), by
// `stratos provider status ollama` and by the build-time model check: the
// OLLAMA_HOST origin, model names, the installed inventory read from
// /api/tags and /api/show (never by inference), and which models an agent
// may use. It never pulls, creates, loads or changes a model.
package ollama
