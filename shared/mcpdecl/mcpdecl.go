// Package mcpdecl reads the MCP servers a workflow declares in its
// workflow.yaml (mcp.servers.<name>): a stdio server (command, args, env,
// cwd) or a streamable HTTP server (url, headers, oauth), each with an
// optional connectTimeout.
//
// Declarations are validated without touching the environment: secrets do
// not belong in workflow.yaml, so values may reference environment
// variables as ${NAME}, and Resolve substitutes them when a server is about
// to be used (build discovery, direct clients, agent configuration). Every
// problem names the field path (mcp.servers.github.url) so the author can
// find it.
package mcpdecl

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// Transports a server can be declared with.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http"
)

// DefaultConnectTimeout bounds, for a server that declares no
// connectTimeout, starting or reaching it and the protocol's handshake
// (server/discover or initialize). It is seconds, not the five minutes a
// tool call may take: a server that never answers would otherwise hold up
// every build of its workflow that long, and most servers answer within a
// second; one that downloads itself first (npx -y) may need more, and its
// declaration says so.
const DefaultConnectTimeout = 30 * time.Second

// Compiled on first use rather than at start, which every process that
// links the package would pay whether it uses it or not.
var namePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9_-]{0,63}$`) })

// Server is one declared MCP server, as written (references unresolved).
type Server struct {
	Name      string `json:"name"`
	Transport string `json:"transport"`
	// Command, Args, Env and Cwd start a stdio server; their relative
	// paths are relative to the workflow directory (see Resolve).
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	// URL, Headers and OAuth reach a streamable HTTP server.
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	OAuth   *OAuth            `json:"oauth,omitempty"`
	// ConnectTimeout is the declared connectTimeout, zero when none (see
	// Timeout).
	ConnectTimeout time.Duration `json:"connectTimeout,omitempty"`
	// Elicitation is how Stratos's clients answer the server's
	// elicitation requests: ElicitationRefuse (empty: the default) or
	// ElicitationAcceptDefaults.
	Elicitation string `json:"elicitation,omitempty"`
	// Sampling is how Stratos's direct clients answer the server's
	// sampling requests: empty (the default) offers no sampling;
	// SamplingDecision answers them with a model call through the
	// Decision primitive's backends and the workflow's decision
	// configuration.
	Sampling string `json:"sampling,omitempty"`
}

// The elicitation policies a declaration may name. A run has nobody to
// ask, so neither waits for anyone: refuse offers no elicitation at all
// (servers hide the tools that need it or go on without), and
// accept-defaults answers every form at once with the defaults its schema
// gives, declining one that asks for a required value without a default.
const (
	ElicitationRefuse         = "refuse"
	ElicitationAcceptDefaults = "accept-defaults"
)

// SamplingDecision is the one sampling policy a declaration may name: a
// model call costs money and sends the server's text to a model, so a
// server gets sampling only when its declaration opts in.
const SamplingDecision = "decision"

// Timeout bounds connecting to the server: starting or reaching it and the
// protocol's handshake. It is the declared connectTimeout, or
// DefaultConnectTimeout.
func (s Server) Timeout() time.Duration {
	if s.ConnectTimeout > 0 {
		return s.ConnectTimeout
	}
	return DefaultConnectTimeout
}

// TimeoutField is the field path that declares the server's connect
// timeout, for errors that say how to raise it.
func (s Server) TimeoutField() string { return "mcp.servers." + s.Name + ".connectTimeout" }

// Problem is one invalid field of the mcp section.
type Problem struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

func (p Problem) String() string { return p.Field + ": " + p.Message }

// Servers holds a workflow's declared servers by name.
type Servers map[string]Server

// Names returns the declared names, sorted.
func (s Servers) Names() []string {
	names := slices.Sorted(maps.Keys(s))
	return names
}

// Parse validates a workflow.yaml mcp section as the manifest package
// decoded it (nil when absent). Valid servers are returned even when others
// have problems.
func Parse(section any) (Servers, []Problem) {
	out := Servers{}
	if section == nil {
		return out, nil
	}
	p := parser{}
	m, ok := section.(map[string]any)
	if !ok {
		p.add("mcp", "must be a mapping with a servers map")
		return out, p.problems
	}
	for _, key := range slices.Sorted(maps.Keys(m)) {
		if key != "servers" {
			p.add("mcp."+key, "unknown field (known: servers)")
		}
	}
	raw, present := m["servers"]
	if !present || raw == nil {
		return out, p.problems
	}
	servers, ok := raw.(map[string]any)
	if !ok {
		p.add("mcp.servers", "must be a mapping of server names to servers")
		return out, p.problems
	}
	for _, name := range slices.Sorted(maps.Keys(servers)) {
		if s, ok := p.server(name, servers[name]); ok {
			out[name] = s
		}
	}
	return out, p.problems
}

type parser struct{ problems []Problem }

func (p *parser) add(field, format string, args ...any) {
	p.problems = append(p.problems, Problem{Field: field, Message: fmt.Sprintf(format, args...)})
}

var fieldsByTransport = map[string]map[string]bool{
	TransportStdio: {"type": true, "command": true, "args": true, "env": true, "cwd": true, "connectTimeout": true, "elicitation": true, "sampling": true},
	TransportHTTP:  {"type": true, "url": true, "headers": true, "oauth": true, "connectTimeout": true, "elicitation": true, "sampling": true},
}

func (p *parser) server(name string, v any) (Server, bool) {
	path := "mcp.servers." + name
	before := len(p.problems)
	if !namePattern().MatchString(name) {
		p.add(path, "server name %q must match ^[a-z][a-z0-9_-]{0,63}$ (it names generated/mcp/%s.ts)", name, name)
	}
	m, ok := v.(map[string]any)
	if !ok {
		p.add(path, "must be a mapping with a command (stdio) or a url (streamable HTTP)")
		return Server{}, false
	}
	s := Server{Name: name, Transport: p.transport(path, m)}
	if s.Transport == "" {
		return Server{}, false
	}
	known := fieldsByTransport[s.Transport]
	for _, key := range slices.Sorted(maps.Keys(m)) {
		if !known[key] {
			p.add(path+"."+key, "not a field of a %s server (known: %s)", s.Transport, strings.Join(slices.Sorted(maps.Keys(known)), ", "))
		}
	}
	s.Command = p.str(path+".command", m["command"])
	s.Args = p.strs(path+".args", m["args"])
	s.Env = p.strMap(path+".env", m["env"])
	s.Cwd = p.str(path+".cwd", m["cwd"])
	s.URL = p.str(path+".url", m["url"])
	s.Headers = p.strMap(path+".headers", m["headers"])
	s.OAuth = p.oauth(path+".oauth", m["oauth"])
	s.ConnectTimeout = p.duration(path+".connectTimeout", m["connectTimeout"])
	s.Elicitation = p.elicitation(path+".elicitation", m["elicitation"])
	s.Sampling = p.sampling(path+".sampling", m["sampling"])
	if s.Transport == TransportHTTP {
		p.checkURL(path+".url", s.URL)
	}
	p.checkSecrets(path, s)
	p.checkReferences(path, s)
	return s, len(p.problems) == before
}

// transport decides the server's transport from type, command and url.
func (p *parser) transport(path string, m map[string]any) string {
	_, hasCommand := m["command"]
	_, hasURL := m["url"]
	typ, _ := m["type"].(string)
	switch {
	case m["type"] != nil && typ != TransportStdio && typ != TransportHTTP:
		p.add(path+".type", "must be %q or %q (streamable HTTP), not %v", TransportStdio, TransportHTTP, m["type"])
	case hasCommand && hasURL:
		p.add(path, "has both command (stdio) and url (streamable HTTP); keep one")
	case typ == TransportStdio || (typ == "" && hasCommand):
		if !hasCommand {
			p.add(path+".command", "is required for a stdio server")
			return ""
		}
		return TransportStdio
	case typ == TransportHTTP || (typ == "" && hasURL):
		if !hasURL {
			p.add(path+".url", "is required for a streamable HTTP server")
			return ""
		}
		return TransportHTTP
	default:
		p.add(path, "needs a command (stdio) or a url (streamable HTTP)")
	}
	return ""
}

func (p *parser) str(field string, v any) string {
	if v == nil {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		p.add(field, "must be a string")
		return ""
	}
	if strings.TrimSpace(s) == "" {
		p.add(field, "must not be blank")
	}
	return s
}

func (p *parser) strs(field string, v any) []string {
	if v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		p.add(field, "must be a list of strings")
		return nil
	}
	out := make([]string, 0, len(list))
	for i, item := range list {
		s, ok := item.(string)
		if !ok {
			p.add(fmt.Sprintf("%s[%d]", field, i), "must be a string")
			continue
		}
		out = append(out, s)
	}
	return out
}

func (p *parser) strMap(field string, v any) map[string]string {
	if v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		p.add(field, "must be a mapping of names to strings")
		return nil
	}
	out := make(map[string]string, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		s, ok := m[k].(string)
		if !ok {
			p.add(field+"."+k, "must be a string (quote numbers and booleans)")
			continue
		}
		out[k] = s
	}
	return out
}

// duration reads a positive duration written with its unit ("45s",
// "2m"): a bare number would leave the reader guessing seconds or
// milliseconds.
func (p *parser) duration(field string, v any) time.Duration {
	if v == nil {
		return 0
	}
	s, ok := v.(string)
	if !ok {
		p.add(field, "must be a duration with its unit, such as 45s or 2m, not %v", v)
		return 0
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		p.add(field, "%q must be a positive duration with its unit, such as 45s or 2m", s)
		return 0
	}
	return d
}

// elicitation reads an elicitation policy.
func (p *parser) elicitation(field string, v any) string {
	s := p.str(field, v)
	switch s {
	case "", ElicitationRefuse, ElicitationAcceptDefaults:
		return s
	}
	p.add(field, "%q is not an elicitation policy (known: %s, %s)", s, ElicitationRefuse, ElicitationAcceptDefaults)
	return ""
}

// sampling reads a sampling policy.
func (p *parser) sampling(field string, v any) string {
	s := p.str(field, v)
	if s != "" && s != SamplingDecision {
		p.add(field, "%q is not a sampling policy (known: %s; leave it out to offer no sampling)", s, SamplingDecision)
		return ""
	}
	return s
}

// isWholeReference reports whether value is one ${NAME} reference and
// nothing else.
func isWholeReference(value string) bool {
	m := reference().FindStringSubmatchIndex(value)
	return m != nil && m[0] == 0 && m[1] == len(value) && m[2] >= 0
}

func (p *parser) checkURL(field, raw string) {
	if raw == "" || strings.Contains(raw, "${") {
		return
	}
	if !strings.HasPrefix(raw, "http://") && !strings.HasPrefix(raw, "https://") {
		p.add(field, "%q must be an http:// or https:// URL", raw)
	}
}

// secretName matches env and header names whose values are credentials.
// Compiled on first use rather than at start, which every process that
// links the package would pay whether it uses it or not.
var secretName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(token|secret|password|passwd|api[-_]?key|authorization|credential)`)
})

// checkSecrets rejects literal credentials: workflow.yaml is committed, so
// a credential-named value must come from the environment.
func (p *parser) checkSecrets(path string, s Server) {
	for _, group := range []struct {
		field  string
		values map[string]string
	}{{"env", s.Env}, {"headers", s.Headers}} {
		for _, k := range slices.Sorted(maps.Keys(group.values)) {
			if secretName().MatchString(k) && !strings.Contains(group.values[k], "${") {
				p.add(path+"."+group.field+"."+k, "looks like a credential written into workflow.yaml; reference an environment variable instead (%s: \"${%s}\")", k, envName(k))
			}
		}
	}
}

// checkReferences reports malformed ${...} references now rather than at
// run time.
func (p *parser) checkReferences(path string, s Server) {
	each(path, s, func(field, value string) {
		if err := checkSyntax(value); err != "" {
			p.add(field, "%s", err)
		}
	})
}

// each calls f with every field of s that may hold ${NAME} references.
func each(path string, s Server, f func(field, value string)) {
	f(path+".command", s.Command)
	for i, a := range s.Args {
		f(fmt.Sprintf("%s.args[%d]", path, i), a)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		f(path+".env."+k, s.Env[k])
	}
	f(path+".cwd", s.Cwd)
	f(path+".url", s.URL)
	for _, k := range slices.Sorted(maps.Keys(s.Headers)) {
		f(path+".headers."+k, s.Headers[k])
	}
	if s.OAuth != nil {
		f(path+".oauth.clientId", s.OAuth.ClientID)
		f(path+".oauth.clientSecret", s.OAuth.ClientSecret)
		f(path+".oauth.privateKey", s.OAuth.PrivateKey)
		f(path+".oauth.clientMetadataUrl", s.OAuth.ClientMetadataURL)
		if idp := s.OAuth.IdP; idp != nil {
			f(path+".oauth.idp.tokenUrl", idp.TokenURL)
			f(path+".oauth.idp.clientId", idp.ClientID)
			f(path+".oauth.idp.clientSecret", idp.ClientSecret)
			f(path+".oauth.idp.idToken", idp.IDToken)
		}
	}
}

func envName(key string) string {
	up := strings.ToUpper(regexp.MustCompile(`[^A-Za-z0-9]+`).ReplaceAllString(key, "_"))
	if up == "AUTHORIZATION" {
		return "API_TOKEN"
	}
	return up
}
