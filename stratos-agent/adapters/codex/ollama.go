package codex

import (
	"context"
	"slices"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/ollama"
	"github.com/stratoscli/stratos/stratos-agent/adapter/ollamaerr"
)

// The Ollama provider: Codex reserves the ID "ollama" for its built-in one
// (which Stratos does not use: it ignores OLLAMA_HOST), so the keyless
// Responses provider Stratos defines has its own ID.
const (
	providerOllama   = "ollama"
	providerOllamaID = "stratos-ollama"
)

// ollamaRetries bounds Codex's retries against a local server: one that
// is down must fail the turn quickly instead of being retried for minutes.
const ollamaRetries = 1

// ollamaHost is the server of OLLAMA_HOST in env (default localhost).
func ollamaHost(agent string, env []string) (ollama.Host, error) {
	h, err := ollama.HostFromEnv(func(k string) string { return lookupEnv(env, k) })
	if err != nil {
		return ollama.Host{}, ollamaerr.ForAgent(Harness, agent, err)
	}
	return h, nil
}

// ollamaProvider is the Responses provider at baseURL (the server, or the
// namespace proxy in front of it). No OpenAI key or login is involved: the
// server itself is keyless, and the only key is the proxy's own token.
func ollamaProvider(baseURL string, proxy *namespaceProxy) provider {
	table := map[string]any{
		"name": "Ollama (Stratos)", "base_url": baseURL + "/v1", "wire_api": "responses",
		"request_max_retries": ollamaRetries, "stream_max_retries": ollamaRetries,
	}
	if proxy == nil {
		return provider{ID: providerOllamaID, Table: table}
	}
	table["env_key"] = proxyTokenVar
	return provider{ID: providerOllamaID, Table: table, proxy: proxy, Env: map[string]string{proxyTokenVar: proxy.token}}
}

// checkOllamaModel reads the server's inventory (never inference) and
// returns the model when it is installed and can serve an agent.
func (s *session) checkOllamaModel(ctx context.Context, host ollama.Host, name string) (ollama.Model, error) {
	ms, err := ollama.Client{Host: host}.Ready(ctx, []string{name})
	if err != nil {
		return ollama.Model{}, ollamaerr.ForAgent(Harness, s.spec.Name, err)
	}
	return ms[0], nil
}

// initializeOllama is Initialize for provider ollama: the server from
// OLLAMA_HOST, the model checked against its inventory, the namespace
// proxy in front of it when MCP servers are selected. No OpenAI key or
// Codex login is looked at.
func (s *session) initializeOllama(ctx context.Context, bin binary, env []string) error {
	if len(s.spec.Models) == 0 {
		return agentproto.Errorf(agentproto.CodeConfiguration,
			"agent %q: provider ollama needs a model: the name of an installed Ollama model, e.g. qwen3:8b", s.spec.Name).
			WithDetails(map[string]any{"harness": Harness, "provider": providerOllama})
	}
	host, err := ollamaHost(s.spec.Name, env)
	if err != nil {
		return err
	}
	name, err := s.resolveModel(ctx)
	if err != nil {
		return err
	}
	m, err := s.checkOllamaModel(ctx, host, name)
	if err != nil {
		return err
	}
	servers, err := s.opts.MCPServers(s.spec.WorkflowDir, s.spec.AllowedMcps)
	if err != nil {
		return err
	}
	// Codex offers MCP tools as namespace tools, and Stratos's own hook
	// server is an MCP server of every session: its tools are offered even
	// when the agent selects no MCP server, so the proxy always runs.
	prov, err := ollamaSessionProvider(host, m, true)
	if err != nil {
		return agentproto.Errorf(agentproto.CodeInitialization, "agent %q: harness codex: %v", s.spec.Name, err).Wrap(err)
	}
	s.log.Debug("ollama model ready", "host", host.String(), "model", m.Name, "digest", m.Digest,
		"quantization", m.Quantization, "context", m.Context(), "proxy", prov.proxy != nil)
	return s.prepare(bin, env, prov, m.Name, mcpTables(servers))
}

// ollamaSessionProvider is the provider for model m: Codex has no
// metadata for local models, so the context window comes from the model
// (its num_ctx, else the advertised limit). With MCP servers, Codex
// reaches the server through a namespace proxy.
func ollamaSessionProvider(host ollama.Host, m ollama.Model, viaProxy bool) (provider, error) {
	base := host.String()
	var proxy *namespaceProxy
	if viaProxy {
		var err error
		if proxy, err = startNamespaceProxy(base); err != nil {
			return provider{}, err
		}
		base = proxy.url
	}
	prov := ollamaProvider(base, proxy)
	prov.Config = map[string]any{
		// Its multi_agent_v1 tools are a namespace sent even without MCP
		// servers; local models have no use for sub-agents.
		"features.multi_agent": false,
		// Web search is a hosted tool the model provider runs (OpenAI's
		// servers); a local server has none, so the model is not offered it.
		"web_search": "disabled",
	}
	// view_image hands the model an image file; a model without image
	// input cannot read it, so it is not offered the tool.
	if !slices.Contains(m.Capabilities, ollama.CapVision) {
		prov.Config["features.view_image"] = false
	}
	if n := m.Context(); n > 0 {
		prov.Config["model_context_window"] = n
	}
	return prov, nil
}

// closeProxy stops a provider's proxy, if it has one.
func closeProxy(p provider) {
	if p.proxy != nil {
		_ = p.proxy.Close()
	}
}
