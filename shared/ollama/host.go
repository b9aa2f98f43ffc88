package ollama

import (
	"fmt"
	"net/url"
	"strings"
)

// EnvHost is the environment variable naming the server, as in Ollama.
const EnvHost = "OLLAMA_HOST"

// DefaultHost is the server used when OLLAMA_HOST is unset or empty.
const DefaultHost = "http://127.0.0.1:11434"

// Host is a validated server origin: scheme http or https, a host and
// optionally a port, nothing else.
type Host struct{ u *url.URL }

// String is the origin, e.g. http://127.0.0.1:11434.
func (h Host) String() string { return h.u.String() }

// URL is the origin with path p appended (p starts with "/").
func (h Host) URL(p string) string { return h.u.String() + p }

// HostFromEnv is the server named by OLLAMA_HOST in lookup (os.Getenv or
// an explicit environment), else DefaultHost.
func HostFromEnv(lookup func(string) string) (Host, error) {
	raw := strings.TrimSpace(lookup(EnvHost))
	if raw == "" {
		return ParseHost(DefaultHost)
	}
	h, err := ParseHost(raw)
	if err != nil {
		return Host{}, fmt.Errorf("%s: %w", EnvHost, err)
	}
	return h, nil
}

// ParseHost validates an origin. Ollama itself also accepts a bare
// host:port, but an agent's model traffic must not depend on guessing the
// scheme, and credentials in the URL would end up in harness
// configuration, so only a plain HTTP(S) origin is accepted.
func ParseHost(raw string) (Host, error) {
	if !strings.Contains(raw, "://") {
		return Host{}, &Error{Code: CodeHostInvalid, Host: raw,
			msg: fmt.Sprintf("%q is not an HTTP(S) origin: it needs the scheme http:// or https:// (e.g. http://127.0.0.1:11434)", raw)}
	}
	u, err := url.Parse(raw)
	if err != nil {
		// Not echoed: an unparsable value may hold a password.
		return Host{}, &Error{Code: CodeHostInvalid, msg: "value is not a URL"}
	}
	var problem string
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		problem = "needs the scheme http:// or https:// (e.g. http://127.0.0.1:11434)"
	case u.Host == "" || u.Hostname() == "":
		problem = "has no host"
	case u.User != nil:
		problem = "must not carry credentials"
	case u.Path != "" && u.Path != "/":
		problem = "must not have a path"
	case u.RawQuery != "" || u.ForceQuery:
		problem = "must not have a query"
	case u.Fragment != "" || strings.Contains(raw, "#"):
		problem = "must not have a fragment"
	}
	if problem != "" {
		shown := raw
		if u.User != nil {
			u.User = url.User("REDACTED")
			shown = u.String()
		}
		return Host{}, &Error{Code: CodeHostInvalid, Host: shown, msg: fmt.Sprintf("%q is not an HTTP(S) origin: it %s", shown, problem)}
	}
	return Host{u: &url.URL{Scheme: u.Scheme, Host: u.Host}}, nil
}
