package ollama

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"
)

// What decisions need of a server besides an origin: an explicit endpoint
// may sit behind a proxy under a path, and a model answers a decision
// with completion alone (no tools), so models that cannot serve an agent
// can still answer decisions (docs/design/decision.md).

// ParseBaseURL validates an explicit endpoint (a decision's baseUrl): an
// HTTP(S) URL without credentials, query or fragment that, unlike an
// OLLAMA_HOST origin, may carry a path prefix
// ("https://gateway.example/ollama": the API is then under
// /ollama/api/...). A trailing slash is dropped.
func ParseBaseURL(raw string) (Host, error) {
	if !strings.Contains(raw, "://") {
		// Shown without what comes before an @: credentials written
		// without the scheme (user:secret@gateway) are credentials still.
		shown := raw
		if at := strings.LastIndex(raw, "@"); at >= 0 {
			shown = "REDACTED@" + raw[at+1:]
		}
		return Host{}, &Error{Code: CodeHostInvalid, Host: shown,
			msg: fmt.Sprintf("%q is not an HTTP(S) URL: it needs the scheme http:// or https:// (e.g. http://127.0.0.1:11434)", shown)}
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
		return Host{}, &Error{Code: CodeHostInvalid, Host: shown, msg: fmt.Sprintf("%q is not an HTTP(S) URL Stratos can use: it %s", shown, problem)}
	}
	return Host{u: &url.URL{Scheme: u.Scheme, Host: u.Host, Path: strings.TrimSuffix(u.Path, "/")}}, nil
}

// Answerable checks that the model name (tag normalized) is installed
// locally and advertises completion, which is all a decision needs, and
// returns it. A missing model is CodeModelMissing naming the installed
// ones; a cloud entry or one without completion is CodeModelIneligible.
func (c Client) Answerable(ctx context.Context, raw string) (Model, error) {
	name, err := NormalizeName(raw)
	if err != nil {
		return Model{}, err
	}
	tags, err := c.tags(ctx)
	if err != nil {
		return Model{}, err
	}
	i := slices.IndexFunc(tags, func(t tagsEntry) bool { return t.name() == name })
	if i < 0 {
		var installed []string
		for _, t := range tags {
			if t.RemoteHost == "" {
				installed = append(installed, t.name())
			}
		}
		sort.Strings(installed)
		list := "none"
		if len(installed) > 0 {
			list = joinNames(installed)
		}
		return Model{}, &Error{Code: CodeModelMissing, Host: c.Host.String(), Models: []string{name},
			msg: fmt.Sprintf("not installed: %s (installed: %s); Stratos does not pull models: run `ollama pull %s` yourself", name, list, name)}
	}
	m, err := c.describe(ctx, tags[i])
	if err != nil {
		return Model{}, err
	}
	why := ""
	switch {
	case m.Remote:
		why = "a remote (cloud) entry, not a local model"
	case !slices.Contains(m.Capabilities, CapCompletion):
		why = "lacks the completion capability"
	}
	if why != "" {
		return Model{}, &Error{Code: CodeModelIneligible, Host: c.Host.String(), Models: []string{name},
			msg: fmt.Sprintf("%s cannot answer decisions: %s", name, why)}
	}
	return m, nil
}
