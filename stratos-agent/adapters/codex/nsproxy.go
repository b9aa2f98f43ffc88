package codex

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/stratoscli/stratos/shared/loopbackguard"
)

// namespaceProxy sits between Codex and Ollama when MCP servers are
// selected. Codex offers every MCP server's tools as one "namespace" tool
// and dispatches only calls that name the namespace and the tool
// separately; Ollama rejects namespace tools or answers with one flattened
// name Codex cannot dispatch. The proxy offers each namespaced tool to
// Ollama as a plain function "<namespace>__<tool>" and splits the names of
// the calls that come back. Everything else passes through unchanged.
//
// The proxy is a way to the user's model server, on a loopback port other
// users of the machine and web pages in the user's browser reach too: every
// request needs the proxy's bearer token, which Codex sends as the
// provider's key (env_key; the guard takes it off before the request goes
// on), and must name the proxy in Host and come from no other origin or
// site (shared/loopbackguard).
type namespaceProxy struct {
	url string
	// token is the bearer token Codex sends, from proxyTokenVar.
	token string
	srv   *http.Server
	ln    net.Listener
	// maxBody bounds a request or a JSON answer the proxy reads whole to
	// rewrite it (maxProxiedBody; tests set less).
	maxBody int64
	// names maps every flat name the proxy made to its namespace and tool.
	// Codex offers the same tools on every request of a session.
	mu    sync.Mutex
	names map[string]splitName
}

type splitName struct{ namespace, name string }

// flatSeparator joins a namespace and a tool name. Codex's namespaces are
// "mcp__<server>", so "__" keeps the flat names in the usual function-name
// alphabet.
const flatSeparator = "__"

// maxProxiedBody bounds what the proxy holds in memory to rewrite: a
// Responses request (Codex's whole conversation) or a JSON answer, as it
// bounds one SSE event. Codex's largest contexts are a few MB.
const maxProxiedBody = 64 << 20

// errAnswerTooLarge is an answer of the model server over the proxy's bound.
var errAnswerTooLarge = errors.New("the answer is larger than the proxy passes")

// proxyTokenVar carries the proxy's token into the app-server's
// environment; the provider names it as its env_key.
const proxyTokenVar = "STRATOS_CODEX_PROXY_TOKEN"

// startNamespaceProxy serves the proxy for upstream (an origin) on a
// loopback port.
func startNamespaceProxy(upstream string) (*namespaceProxy, error) {
	target, err := url.Parse(upstream)
	if err != nil {
		return nil, fmt.Errorf("namespace proxy: %w", err)
	}
	token, err := loopbackguard.NewToken()
	if err != nil {
		return nil, fmt.Errorf("namespace proxy: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("namespace proxy: listen: %w", err)
	}
	p := &namespaceProxy{url: "http://" + ln.Addr().String(), token: token, ln: ln, maxBody: maxProxiedBody, names: map[string]splitName{}}
	rp := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
			r.Out.Host = target.Host
		},
		ModifyResponse: p.modifyResponse,
		FlushInterval:  -1, // stream every SSE event at once
		ErrorHandler:   upstreamError(upstream),
	}
	p.srv = &http.Server{Handler: loopbackguard.Guard{Token: token}.Wrap(p.handler(rp)), ReadHeaderTimeout: 30 * time.Second}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

// Close stops the proxy; open streams end with it.
func (p *namespaceProxy) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := p.srv.Shutdown(ctx); err != nil {
		return p.srv.Close()
	}
	return nil
}

// handler rewrites the tools and history of Responses requests before
// they go upstream.
func (p *namespaceProxy) handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/responses") {
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, p.maxBody))
			if tooLarge := (*http.MaxBytesError)(nil); errors.As(err, &tooLarge) {
				http.Error(w, fmt.Sprintf("namespace proxy: the request is larger than the proxy passes (%d bytes)", p.maxBody), http.StatusRequestEntityTooLarge)
				return
			}
			if err != nil {
				http.Error(w, "namespace proxy: "+err.Error(), http.StatusBadRequest)
				return
			}
			if out, err := p.flattenRequest(body); err == nil {
				body = out
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
			r.Header.Del("Content-Length")
		}
		next.ServeHTTP(w, r)
	})
}

// flattenRequest replaces namespace tools by their functions, flat-named,
// and flattens the names of earlier calls in the input history.
func (p *namespaceProxy) flattenRequest(body []byte) ([]byte, error) {
	var req map[string]any
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, err
	}
	tools, _ := req["tools"].([]any)
	var flat []any
	for _, t := range tools {
		tool, _ := t.(map[string]any)
		if tool["type"] != "namespace" {
			flat = append(flat, t)
			continue
		}
		ns, _ := tool["name"].(string)
		subs, _ := tool["tools"].([]any)
		for _, s := range subs {
			fn, ok := s.(map[string]any)
			if !ok {
				continue
			}
			name, _ := fn["name"].(string)
			fn["name"] = p.flatten(ns, name)
			flat = append(flat, fn)
		}
	}
	if tools != nil {
		req["tools"] = flat
	}
	items, _ := req["input"].([]any)
	for _, it := range items {
		item, _ := it.(map[string]any)
		if ns, ok := item["namespace"].(string); ok && ns != "" {
			name, _ := item["name"].(string)
			item["name"] = p.flatten(ns, name)
			delete(item, "namespace")
		}
	}
	return json.Marshal(req)
}

func (p *namespaceProxy) flatten(ns, name string) string {
	flat := ns + flatSeparator + name
	p.mu.Lock()
	defer p.mu.Unlock()
	p.names[flat] = splitName{ns, name}
	// The form Ollama is reported to answer with when it flattens a
	// namespace itself.
	p.names[ns+"."+name] = splitName{ns, name}
	return flat
}

func (p *namespaceProxy) split(flat string) (splitName, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.names[flat]
	return s, ok
}

// modifyResponse splits the flat names of the calls in a Responses
// answer: the SSE stream event by event, or one JSON document.
func (p *namespaceProxy) modifyResponse(resp *http.Response) error {
	if resp.Request.Method != http.MethodPost || !strings.HasSuffix(resp.Request.URL.Path, "/responses") || resp.StatusCode/100 != 2 {
		return nil
	}
	resp.Header.Del("Content-Length")
	resp.ContentLength = -1
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		pr, pw := io.Pipe()
		go p.rewriteStream(resp.Body, pw)
		resp.Body = pr
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, p.maxBody+1))
	resp.Body.Close()
	if err != nil {
		return err
	}
	if int64(len(data)) > p.maxBody {
		return fmt.Errorf("%w (%d bytes)", errAnswerTooLarge, p.maxBody)
	}
	resp.Body = io.NopCloser(bytes.NewReader(p.rewriteJSON(data)))
	return nil
}

// rewriteStream copies an SSE stream line by line, rewriting data lines.
func (p *namespaceProxy) rewriteStream(in io.ReadCloser, out *io.PipeWriter) {
	defer in.Close()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if data, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			line = append([]byte("data: "), p.rewriteJSON(bytes.TrimSpace(data))...)
		}
		if _, err := out.Write(append(line, '\n')); err != nil {
			return
		}
	}
	err := sc.Err()
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = nil
	}
	out.CloseWithError(err)
}

// rewriteJSON splits the flat name of every function call in a JSON
// document; anything that is not JSON passes unchanged.
func (p *namespaceProxy) rewriteJSON(data []byte) []byte {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return data
	}
	if !p.splitCalls(v) {
		return data
	}
	out, err := json.Marshal(v)
	if err != nil {
		return data
	}
	return out
}

// splitCalls rewrites function_call objects anywhere in v in place and
// reports whether it changed anything.
func (p *namespaceProxy) splitCalls(v any) bool {
	changed := false
	switch x := v.(type) {
	case map[string]any:
		if x["type"] == "function_call" {
			if name, ok := x["name"].(string); ok {
				if s, ok := p.split(name); ok {
					x["name"], x["namespace"] = s.name, s.namespace
					changed = true
				}
			}
		}
		for _, e := range x {
			changed = p.splitCalls(e) || changed
		}
	case []any:
		for _, e := range x {
			changed = p.splitCalls(e) || changed
		}
	}
	return changed
}

// upstreamError answers a request the server did not take (down, reset)
// with an OpenAI-style error naming the server, so the turn's error says
// which Ollama failed rather than only "502 Bad Gateway".
func upstreamError(upstream string) func(http.ResponseWriter, *http.Request, error) {
	return func(w http.ResponseWriter, r *http.Request, err error) {
		if r.Context().Err() != nil {
			return // Codex went away; nobody reads an answer
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		msg := fmt.Sprintf("Ollama at %s is not reachable: %v", upstream, err)
		if errors.Is(err, errAnswerTooLarge) {
			msg = fmt.Sprintf("Ollama at %s: %v", upstream, err)
		}
		body, _ := json.Marshal(map[string]any{"error": map[string]any{"type": "server_error", "code": nil, "param": nil, "message": msg}})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write(body)
	}
}
