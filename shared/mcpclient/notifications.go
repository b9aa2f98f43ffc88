//lint:file-ignore SA1019 logging and roots are deprecated as of protocol 2026-07-28 (SEP-2577), but sessions on 2025-11-25 and earlier use them and servers send them: Stratos supports both on purpose (docs/mcp.md), here only.

package mcpclient

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"reflect"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The protocol version from which a session keeps no state on the server:
// the client states its log level in each request's _meta instead of with
// logging/setLevel, and a subscription is a subscriptions/listen stream.
const statelessProtocol = "2026-07-28"

// offerRoots declares the roots capability when the client has a
// workflow's directory to offer (addRoots); none otherwise.
func offerRoots(o *mcp.ClientOptions, workflowDir string) {
	if workflowDir != "" {
		o.Capabilities.RootsV2 = &mcp.RootCapabilities{}
	}
}

// LogMessage is a server's log message (notifications/message).
type LogMessage struct {
	Level  string // "debug" … "emergency"
	Logger string // "" when the server names none
	Data   any    // any JSON the server sent
}

// hearLogs passes the server's log messages to log (nil: dropped).
func hearLogs(o *mcp.ClientOptions, log func(LogMessage)) {
	if log == nil {
		return
	}
	o.LoggingMessageHandler = func(_ context.Context, req *mcp.LoggingMessageRequest) {
		if p := req.Params; p != nil {
			log(LogMessage{Level: string(p.Level), Logger: p.Logger, Data: p.Data})
		}
	}
}

// addRoots offers the workflow's directory as the client's one root (a
// server answers roots/list with it): the files a server may take as the
// user's project. A client without a workflow offers none and declares no
// roots capability (clientOptions).
func addRoots(client *mcp.Client, workflowDir string) {
	if workflowDir == "" {
		return
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(workflowDir)}
	client.AddRoots(&mcp.Root{URI: u.String(), Name: filepath.Base(workflowDir)})
}

// logLevelMeta states level in every request's _meta, as the 2026-07-28
// protocol asks (its servers keep no level between requests; without one
// they send no log messages). Initialize-era servers ignore it.
func logLevelMeta(level string) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if p := req.GetParams(); p != nil && !isNilParams(p) {
				m := p.GetMeta()
				if m == nil {
					m = map[string]any{}
				}
				m[mcp.MetaKeyLogLevel] = mcp.LoggingLevel(level)
				p.SetMeta(m)
			}
			return next(ctx, method, req)
		}
	}
}

// isNilParams reports whether p is a typed nil pointer (a request sent
// without params), whose meta cannot be set.
func isNilParams(p mcp.Params) bool {
	v := reflect.ValueOf(p)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// setLogLevel asks an initialize-era server that offers logging to send
// log messages from level up (logging/setLevel). A server that offers none
// is not asked: it sends none either way.
func setLogLevel(ctx context.Context, session *mcp.ClientSession, level string) error {
	res := session.InitializeResult()
	if level == "" || res == nil || res.ProtocolVersion >= statelessProtocol || res.Capabilities == nil || res.Capabilities.Logging == nil {
		return nil
	}
	if err := session.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: mcp.LoggingLevel(level)}); err != nil {
		return fmt.Errorf("set the log level to %q: %w", level, err)
	}
	return nil
}

// ResourceChange is a resource notification: the subscribed resource URI
// changed (notifications/resources/updated), or, with ListChanged, the
// server's list of resources did (notifications/resources/list_changed).
type ResourceChange struct {
	URI         string
	ListChanged bool
}

// subscriptions are the URIs a client is subscribed to: an update of any
// other is not passed on, so none arrives after Unsubscribe returned (a
// 2026-07-28 server learns of the end of a subscription when it gets to
// the cancellation of its stream, and may send one more in between).
//
// On 2026-07-28 a subscription is a subscriptions/listen stream, and the
// SDK's Subscribe returns as soon as the request is sent: a change made
// right after it could reach the server before the subscription does and
// never be heard. waiting holds a channel per URI until the server's
// notifications/subscriptions/acknowledged names it (heardAck).
type subscriptions struct {
	mu      sync.Mutex
	uris    map[string]bool
	waiting map[string]chan struct{}
}

func (s *subscriptions) set(uri string, on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.uris == nil {
		s.uris = map[string]bool{}
	}
	if on {
		s.uris[uri] = true
	} else {
		delete(s.uris, uri)
	}
}

func (s *subscriptions) has(uri string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.uris[uri]
}

// awaitAck is closed when the server acknowledges a subscription to uri.
func (s *subscriptions) awaitAck(uri string) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.waiting == nil {
		s.waiting = map[string]chan struct{}{}
	}
	ch, ok := s.waiting[uri]
	if !ok {
		ch = make(chan struct{})
		s.waiting[uri] = ch
	}
	return ch
}

func (s *subscriptions) acked(uris []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, uri := range uris {
		if ch, ok := s.waiting[uri]; ok {
			close(ch)
			delete(s.waiting, uri)
		}
	}
}

func (s *subscriptions) forget(uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.waiting, uri)
}

// heardAck passes each notifications/subscriptions/acknowledged to subs.
func heardAck(subs *subscriptions) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if p, ok := req.GetParams().(*mcp.SubscriptionsAcknowledgedParams); ok && p != nil {
				subs.acked(p.Notifications.ResourceSubscriptions)
			}
			return next(ctx, method, req)
		}
	}
}

// Subscribe asks the server to say when the resource at uri changes
// (Options.Resources hears it). It returns once the server holds the
// subscription, so a change made after it is heard.
func (c *Client) Subscribe(ctx context.Context, uri string) error {
	ctx, cancel := context.WithTimeout(ctx, RequestTimeout)
	defer cancel()
	c.subs.set(uri, true)
	ack := c.subs.awaitAck(uri)
	defer c.subs.forget(uri)
	if err := c.Session.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		c.subs.set(uri, false)
		return fmt.Errorf("subscribe to resource %q of MCP server %q: %w", uri, c.Name, err)
	}
	if !c.listensForSubscriptions() {
		return nil // resources/subscribe was answered: the server holds it
	}
	select {
	case <-ack:
		return nil
	case <-ctx.Done():
		c.subs.set(uri, false)
		_ = c.Session.Unsubscribe(context.WithoutCancel(ctx), &mcp.UnsubscribeParams{URI: uri})
		return fmt.Errorf("subscribe to resource %q of MCP server %q: no acknowledgement: %w", uri, c.Name, ctx.Err())
	}
}

// listensForSubscriptions reports whether the session subscribes with a
// subscriptions/listen stream (2026-07-28 on) rather than a request.
func (c *Client) listensForSubscriptions() bool {
	res := c.Session.InitializeResult()
	return res != nil && res.ProtocolVersion >= statelessProtocol
}

// Unsubscribe ends a subscription; ending one that does not exist is not
// an error for Stratos (the server may say otherwise).
func (c *Client) Unsubscribe(ctx context.Context, uri string) error {
	ctx, cancel := context.WithTimeout(ctx, RequestTimeout)
	defer cancel()
	c.subs.set(uri, false)
	if err := c.Session.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri}); err != nil {
		return fmt.Errorf("unsubscribe from resource %q of MCP server %q: %w", uri, c.Name, err)
	}
	return nil
}
