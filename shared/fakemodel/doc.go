// Package fakemodel is a scripted fake of the model APIs that the harness
// CLIs call, for tests: the real harness (claude, codex, opencode) runs
// unchanged and talks to this server on 127.0.0.1; only the model is fake.
//
// One Fake serves every API it knows from one script: the Anthropic
// Messages API (POST /v1/messages streaming and not, POST
// /v1/messages/count_tokens) and the OpenAI Responses API (POST
// /v1/responses, and the Azure-style /openai/responses) and the OpenAI
// Chat Completions API (POST /v1/chat/completions). Each API is one
// handler type that turns its request into the API-independent Facts, asks
// the shared turn queue for the next scripted Turn, and renders that turn in
// its own wire format (anthropic.go, responses.go, chat.go). Ollama's
// /api/tags and /api/show slot in beside them the same way, and its native
// /api/chat (ollama_chat.go) answers from the turns.
//
// A Script is a list of turns, each answering one model request: text,
// thinking, tool calls, the StructuredOutput tool call, API errors, delays.
// Turns are taken in order; a turn may be restricted to a model, an API or a
// marker in the newest user text, so one server can serve several agents and
// conversations at once. Every request is recorded in a Log (and, when
// asked, in a JSON Lines file) that tests assert on: the tools offered, the
// system prompt, the prompt, what each tool_result said, which turn answered.
//
// docs/fake-model.md documents the script format and the testscript
// commands.
package fakemodel
