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

// writeGuard decides whether a request may change anything (stop a run).
// Three checks, each against a different attack:
//   - the server listens on loopback: on any other address every write is
//     refused, since the network is not the user;
//   - Host names a loopback host: a DNS-rebinding page reaches us under its
//     own name, which the browser puts in Host;
//   - Origin, when sent, is this server's own: a cross-site form or fetch
//     carries its site's Origin;
//   - the token matches: covers clients that send no Origin.
type writeGuard struct {
	loopback bool
	token    string
}

// refusal says why r may not write, "" when it may.
func (g writeGuard) refusal(r *http.Request) string {
	switch {
	case !g.loopback:
		return "this server listens on a non-loopback address: every write is refused"
	case !loopbackHost(r.Host):
		return "the Host header does not name a loopback address"
	case !sameOrigin(r.Header.Get("Origin"), r.Host):
		return "the request comes from another origin"
	case subtle.ConstantTimeCompare([]byte(r.Header.Get(TokenHeader)), []byte(g.token)) != 1:
		return "the request does not carry this server's token"
	}
	return ""
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
