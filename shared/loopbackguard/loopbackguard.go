// Package loopbackguard checks every request to an HTTP server Stratos
// starts on a loopback port for a client of its own: the OAuth redirect of
// `stratos mcp login`, the agent host's MCP relay, the harness adapters'
// hook servers and proxies.
//
// Loopback alone keeps out only other machines. Two kinds of client still
// reach a 127.0.0.1 port:
//   - other users of the same machine, who can connect to any loopback
//     port; only a secret they cannot read keeps them out (Token);
//   - web pages in the user's browser, which can send requests to
//     127.0.0.1 of their own accord (cross-site) or under a name of their
//     own that they make resolve to 127.0.0.1 (DNS rebinding).
//
// So every request must name this server in Host (a loopback address with
// the server's own port: a rebinding page's name is in Host), must not come
// from another origin (a page's fetch says its Origin; a browser says
// Sec-Fetch-Site for everything it sends), and, where the server's client
// can send a header, must carry the server's bearer token. A top-level
// navigation is the one cross-site request let through: it is how the
// authorization server sends the browser back to `stratos mcp login`, and
// it cannot read what it is answered.
package loopbackguard

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Guard holds the checks of one server.
type Guard struct {
	// Token, when not empty, must come with every request as
	// "Authorization: Bearer <Token>". The header is removed before the
	// request reaches the server's handler: the token is this server's,
	// and a proxy must not pass it on.
	Token string
}

// Wrap returns next behind the guard: a refused request is answered 403
// (Host, Origin, another site) or 401 (token) with the reason as plain
// text, and next never sees it.
func (g Guard) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if status, why := g.Check(r); status != 0 {
			if status == http.StatusUnauthorized {
				w.Header().Set("WWW-Authenticate", "Bearer")
			}
			http.Error(w, "stratos: request refused: "+why, status)
			return
		}
		if g.Token != "" {
			r.Header.Del("Authorization")
		}
		next.ServeHTTP(w, r)
	})
}

// Check says why r is refused, as an HTTP status and a reason; 0 and ""
// when it may pass. r must have come through an http.Server, which tells
// the port the connection arrived on.
func (g Guard) Check(r *http.Request) (int, string) {
	port, ok := localPort(r)
	if !ok {
		return http.StatusForbidden, "the port this request arrived on is unknown"
	}
	switch {
	case !hostNamesPort(r.Host, port):
		return http.StatusForbidden, fmt.Sprintf("the Host header %q does not name this server (a loopback address with port %d)", r.Host, port)
	case !SameOrigin(r.Header.Get("Origin"), r.Host):
		return http.StatusForbidden, fmt.Sprintf("the request comes from another origin (%q)", r.Header.Get("Origin"))
	case CrossSite(r):
		return http.StatusForbidden, "the request comes from a page of another site"
	case g.Token != "" && !bearer(r, g.Token):
		return http.StatusUnauthorized, "it does not carry this server's bearer token"
	}
	return 0, ""
}

// NewToken returns a fresh secret for a server: 32 random bytes in hex.
func NewToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("make a server token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// EqualSecret compares a presented secret with the expected one in
// constant time; an empty expected secret matches nothing.
func EqualSecret(got, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// IsLoopbackHost reports whether host (a name or an address, without a
// port) is localhost or a loopback address (127.0.0.0/8, ::1).
func IsLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func bearer(r *http.Request, token string) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && EqualSecret(got, token)
}

// localPort is the port of the listener r arrived on.
func localPort(r *http.Request) (int, bool) {
	addr, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || addr == nil {
		return 0, false
	}
	_, p, err := net.SplitHostPort(addr.String())
	if err != nil {
		return 0, false
	}
	port, err := strconv.Atoi(p)
	return port, err == nil
}

// hostNamesPort reports whether hostport (a Host header) is a loopback
// address with port.
func hostNamesPort(hostport string, port int) bool {
	host, p, err := net.SplitHostPort(hostport)
	return err == nil && p == strconv.Itoa(port) && IsLoopbackHost(host)
}

// SameOrigin reports whether origin (empty: not sent) is http://<host>,
// this server's own.
func SameOrigin(origin, host string) bool {
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && u.Scheme == "http" && u.Path == "" && strings.EqualFold(u.Host, host)
}

// CrossSite reports a request a browser sent for a page of
// another site (another port of 127.0.0.1 too) other than by a top-level
// navigation: a fetch, a form, a script, an image, a frame. Browsers say
// so in Sec-Fetch-Site, which no page can set; programs send none.
func CrossSite(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
		return false
	}
	return r.Method != http.MethodGet || r.Header.Get("Sec-Fetch-Mode") != "navigate" || r.Header.Get("Sec-Fetch-Dest") != "document"
}
