package mcpauth

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// maxMetadata bounds the authorization server metadata read for the
// legacy discovery.
const maxMetadata = 1 << 20

// legacyIssuer lets a login reach a 2025-03-26 server. Such a server has
// no protected-resource metadata: its authorization server's metadata is
// found at the MCP server's origin, and that protocol version does not
// ask the metadata's issuer to be that origin. The SDK checks the issuer
// as RFC 8414 asks of metadata found through an issuer, and refuses such a
// server; so when no protected-resource metadata was found, the metadata
// fetched from the origin is shown to the SDK under the origin it came
// from, and the issuer of the authorization response is mapped the same
// way. Servers with protected-resource metadata are checked in full.
type legacyIssuer struct {
	next   http.RoundTripper
	origin string

	mu          sync.Mutex
	prmFound    bool
	realIssuer  string // of metadata shown under origin; "" when none was
	shownIssuer string
}

// withLegacyIssuer returns client with its transport wrapped for the login
// of the server at serverURL.
func withLegacyIssuer(client *http.Client, serverURL string) (*http.Client, *legacyIssuer) {
	l := &legacyIssuer{next: client.Transport}
	if l.next == nil {
		l.next = http.DefaultTransport
	}
	if u, err := url.Parse(serverURL); err == nil {
		l.origin = u.Scheme + "://" + u.Host
	}
	c := *client
	c.Transport = l
	return &c, l
}

func (l *legacyIssuer) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := l.next.RoundTrip(req)
	if err != nil || req.Method != http.MethodGet || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	origin := req.URL.Scheme + "://" + req.URL.Host
	switch {
	case strings.HasPrefix(req.URL.Path, "/.well-known/oauth-protected-resource"):
		l.mu.Lock()
		l.prmFound = true
		l.mu.Unlock()
	case origin == l.origin && isRootMetadataPath(req.URL.Path) && !l.sawPRM():
		return l.showUnderOrigin(resp)
	}
	return resp, nil
}

func (l *legacyIssuer) sawPRM() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.prmFound
}

func isRootMetadataPath(p string) bool {
	return p == "/.well-known/oauth-authorization-server" || p == "/.well-known/openid-configuration"
}

// showUnderOrigin rewrites the metadata's issuer to the origin.
func (l *legacyIssuer) showUnderOrigin(resp *http.Response) (*http.Response, error) {
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadata))
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	var meta map[string]json.RawMessage
	var issuer string
	if json.Unmarshal(body, &meta) == nil && json.Unmarshal(meta["issuer"], &issuer) == nil && issuer != "" {
		shown, _ := json.Marshal(l.origin)
		meta["issuer"] = shown
		if out, err := json.Marshal(meta); err == nil {
			body = out
			l.mu.Lock()
			l.realIssuer, l.shownIssuer = issuer, l.origin
			l.mu.Unlock()
		}
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// issuerSeen maps the iss of an authorization response from the real
// issuer of metadata shown under the origin to the origin.
func (l *legacyIssuer) issuerSeen(iss string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if iss != "" && l.realIssuer != "" && strings.TrimSuffix(iss, "/") == strings.TrimSuffix(l.realIssuer, "/") {
		return l.shownIssuer
	}
	return iss
}
