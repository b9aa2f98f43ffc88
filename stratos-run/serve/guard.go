package serve

import (
	"net/http"
	"strings"

	"github.com/stratoscli/stratos/shared/loopbackguard"
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
// Three more checks (package loopbackguard's) hold the last two lines a
// second time, in case a token leaks (a shared screen, a shell history):
// on loopback Host must name a loopback address with this server's port (a
// rebinding page's name is in Host), and everywhere a cross-origin or
// cross-site request (its Origin or Sec-Fetch-Site says so) is refused
// unless it is a top-level navigation. Off loopback, Host can be any name
// of the machine, so it proves nothing, and the token carries the load.
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
	if g.loopback {
		if status, why := (loopbackguard.Guard{}).Check(r); status != 0 {
			return why
		}
	} else if !loopbackguard.SameOrigin(r.Header.Get("Origin"), r.Host) {
		return "the request comes from another origin"
	} else if loopbackguard.CrossSite(r) {
		return "the request comes from a page of another site"
	}
	if !g.hasReadToken(r) {
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
	if !loopbackguard.EqualSecret(r.Header.Get(TokenHeader), g.token) {
		return "the request does not carry this server's token"
	}
	return ""
}

// hasReadToken reports whether r presents the read token: in its cookie,
// as "Authorization: Bearer <token>", or as ?token= on the page itself.
func (g guard) hasReadToken(r *http.Request) bool {
	if c, err := r.Cookie(g.cookie); err == nil && loopbackguard.EqualSecret(c.Value, g.readToken) {
		return true
	}
	if auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && loopbackguard.EqualSecret(auth, g.readToken) {
		return true
	}
	return r.URL.Path == "/" && loopbackguard.EqualSecret(r.URL.Query().Get(ReadTokenParam), g.readToken)
}

// IsLoopback reports whether a --host value is a loopback address.
func IsLoopback(host string) bool { return loopbackguard.IsLoopbackHost(host) }
