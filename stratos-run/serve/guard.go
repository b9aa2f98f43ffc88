package serve

import (
	"crypto/subtle"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// TokenHeader carries the per-server token on every write. The page reads
// the token from the HTML the server rendered; a page of another origin
// cannot read that HTML (same-origin policy), so it cannot send the token.
const TokenHeader = "X-Stratos-Token"

// ReadTokenParam is the query parameter of the URL the server prints: the
// first page load presents the read token with it, and the server answers
// with a cookie (and a redirect that drops the token from the address bar
// and history).
const ReadTokenParam = "token"

// guard decides who may read the records and who may change anything.
//
// Reads are the records themselves (inputs, outputs, paths, events) and the
// page, which embeds the write token, so they are guarded as carefully as
// writes. Every request must carry the read token, a random secret printed
// once in the server's URL: as the cookie the first page load trades it
// for, or as a bearer token from a program. That alone keeps out the three
// readers who are not the user:
//   - other users of the machine, who can reach loopback ports too;
//   - a web page of another site in the user's browser, which cannot read
//     the printed URL, nor the cookie (it is HttpOnly and SameSite=Strict);
//   - a DNS-rebinding page, which reaches the server under its own name, a
//     host the cookie was never set for.
//
// On loopback two more checks hold the last two lines a second time, in
// case a token leaks (a shared screen, a shell history): Host must name a
// loopback address (a rebinding page's name is in Host), and a cross-site
// request (its Origin or Sec-Fetch-Site says so) is refused unless it is a
// top-level navigation. Off loopback, Host can be any name of the machine,
// so it proves nothing, and the token carries the load.
//
// Writes (Stop) additionally need the server to listen on loopback (the
// network is not the user) and the write token the page carries in its
// HTML, which a page of another origin cannot read.
type guard struct {
	loopback bool
	// token is the write token the page carries.
	token string
	// readToken is required of every request.
	readToken string
	// cookie is the name of the read-token cookie. Cookies are shared by
	// every port of a host, so the name carries the port: two servers on
	// one machine must not overwrite each other's.
	cookie string
}

// readRefusal says why r may not read, "" when it may.
func (g guard) readRefusal(r *http.Request) string {
	switch {
	case !sameOrigin(r.Header.Get("Origin"), r.Host):
		return "the request comes from another origin"
	case g.loopback && !loopbackHost(r.Host):
		return "the Host header does not name a loopback address"
	case crossSiteSubresource(r):
		return "the request comes from another site"
	case !g.hasReadToken(r):
		return "the request does not carry this server's read token: open the URL `stratos serve` printed (it carries the token), or send \"Authorization: Bearer <token>\""
	}
	return ""
}

// writeRefusal says why r may not write, "" when it may.
func (g guard) writeRefusal(r *http.Request) string {
	if !g.loopback {
		return "this server listens on a non-loopback address: every write is refused"
	}
	if why := g.readRefusal(r); why != "" {
		return why
	}
	if !equalSecret(r.Header.Get(TokenHeader), g.token) {
		return "the request does not carry this server's token"
	}
	return ""
}

// hasReadToken reports whether r presents the read token: in its cookie,
// as "Authorization: Bearer <token>", or as ?token= on the page itself.
func (g guard) hasReadToken(r *http.Request) bool {
	if c, err := r.Cookie(g.cookie); err == nil && equalSecret(c.Value, g.readToken) {
		return true
	}
	if auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && equalSecret(auth, g.readToken) {
		return true
	}
	return r.URL.Path == "/" && equalSecret(r.URL.Query().Get(ReadTokenParam), g.readToken)
}

// equalSecret compares a presented secret with the expected one in
// constant time; an empty expected secret matches nothing.
func equalSecret(got, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// crossSiteSubresource reports a request a browser made for a page of
// another site other than by following a link: a fetch, a script, an image
// or a frame. Browsers say so in Sec-Fetch-Site; following a link to the
// page (a top-level navigation) is what a user does from a bookmark or
// another page, and is allowed.
func crossSiteSubresource(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
		return false
	}
	return !(r.Header.Get("Sec-Fetch-Mode") == "navigate" && r.Header.Get("Sec-Fetch-Dest") == "document")
}

// loopbackHost reports whether hostport (a Host header) names a loopback
// address: localhost or a loopback IP.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// sameOrigin reports whether origin (possibly empty: not sent) is
// http://<host>, the page this server served.
func sameOrigin(origin, host string) bool {
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && u.Scheme == "http" && strings.EqualFold(u.Host, host)
}

// IsLoopback reports whether a --host value is a loopback address.
func IsLoopback(host string) bool { return loopbackHost(host) }
