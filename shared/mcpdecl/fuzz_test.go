package mcpdecl

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/manifest"
)

// FuzzParse checks MCP declarations in any workflow.yaml: every server
// Parse returns is valid on its own (declared alone, it parses without a
// problem), has a known transport and the fields of that transport only,
// and holds no literal credential; a server without problems resolves
// once its variables are set and names the first unset one otherwise.
// testdata/fuzz/FuzzParse holds the acceptance tests' declarations.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`name: wf
shortDescription: s
longDescription: l
mcp:
  servers:
    github:
      url: https://api.example.com/mcp/
      headers: {Authorization: "Bearer ${GITHUB_TOKEN}"}
      oauth: {scopes: [repo], clientId: abc}
    files:
      command: ./bin/server
      args: [--root, ../data, "$${HOME}"]
      env: {API_KEY: "${KEY}", MODE: fast}
      cwd: sub
    local: {type: http, url: "${URL}", oauth: true}
    published:
      url: https://p.example.com/mcp
      oauth: {clientMetadataUrl: "https://${HOST}/client.json", clientId: c}
      elicitation: accept-defaults
    enterprise:
      url: https://e.example.com/mcp
      oauth: {grant: cross_app_access, clientId: c, clientSecret: "${S}", idp: {tokenUrl: "https://idp/token", clientId: i, idToken: "${ID_TOKEN}"}}
    machine:
      url: https://m.example.com/mcp
      oauth: {grant: client_credentials, clientId: c, privateKey: "${KEY}"}
`))
	f.Add([]byte("name: wf\nshortDescription: s\nlongDescription: l\nmcp:\n  servers:\n    Bad_Name: {command: x, url: y}\n    n: {type: ws}\n    t: {command: x, env: {TOKEN: literal}}\n    r: {command: \"${1X}\"}\n"))
	f.Add([]byte("name: wf\nshortDescription: s\nlongDescription: l\nmcp: [1]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, _ := manifest.Parse("/w", "/w/workflow.yaml", data)
		section := m.Sections["mcp"]
		servers, problems := Parse(section)
		for _, p := range problems {
			if p.Field != "mcp" && !strings.HasPrefix(p.Field, "mcp.") || p.Message == "" {
				t.Fatalf("problem without its field path or message: %+v", p)
			}
		}
		all, _ := section.(map[string]any)
		declared, _ := all["servers"].(map[string]any)
		for name, s := range servers {
			if _, alone := Parse(map[string]any{"servers": map[string]any{name: declared[name]}}); len(alone) > 0 {
				t.Fatalf("server %q was returned as valid, but alone it has problems: %v", name, alone)
			}
			checkServer(t, name, s)
		}
	})
}

func checkServer(t *testing.T, name string, s Server) {
	t.Helper()
	if s.Name != name || !namePattern().MatchString(name) {
		t.Fatalf("server %q returned as %q", name, s.Name)
	}
	// A server declared with a null command or url (command: ~) is
	// returned with an empty one and no problem: to be checked here once
	// Parse refuses it (found by this target; see issue 32).
	switch s.Transport {
	case TransportStdio:
		if s.URL != "" || s.Headers != nil || s.OAuth != nil {
			t.Fatalf("stdio server %+v", s)
		}
	case TransportHTTP:
		if s.Command != "" || s.Args != nil || s.Env != nil || s.Cwd != "" {
			t.Fatalf("http server %+v", s)
		}
	default:
		t.Fatalf("server %q with transport %q", name, s.Transport)
	}
	if s.Elicitation != "" && s.Elicitation != ElicitationRefuse && s.Elicitation != ElicitationAcceptDefaults {
		t.Fatalf("server %q with the elicitation policy %q", name, s.Elicitation)
	}
	if s.Sampling != "" && s.Sampling != SamplingDecision {
		t.Fatalf("server %q with the sampling policy %q", name, s.Sampling)
	}
	if o := s.OAuth; o != nil && o.IdP != nil && !isWholeReference(o.IdP.IDToken) {
		t.Fatalf("server %q holds a literal ID token", name)
	}
	for _, values := range []map[string]string{s.Env, s.Headers} {
		for k, v := range values {
			if secretName().MatchString(k) && !strings.Contains(v, "${") {
				t.Fatalf("server %q holds the literal credential %s=%q", name, k, v)
			}
		}
	}
	set := func(string) (string, bool) { return "value", true }
	resolved, err := s.Resolve("/w", set)
	if err != nil {
		t.Fatalf("server %q does not resolve with every variable set: %v", name, err)
	}
	if s.Transport == TransportStdio && (resolved.Cwd == "" || !strings.HasPrefix(resolved.Cwd, "/")) {
		t.Fatalf("stdio server %q resolves to the relative directory %q", name, resolved.Cwd)
	}
	var referenced []string
	each("mcp.servers."+name, s, func(_, value string) {
		for _, m := range reference().FindAllStringSubmatch(value, -1) {
			if m[1] != "" {
				referenced = append(referenced, m[1])
			}
		}
	})
	unset := func(string) (string, bool) { return "", false }
	_, err = s.Resolve("/w", unset)
	var missing *MissingVariableError
	switch {
	case len(referenced) == 0 && err != nil:
		t.Fatalf("server %q without references fails to resolve: %v", name, err)
	case len(referenced) > 0 && (!errors.As(err, &missing) || missing.Variable != referenced[0] || missing.Server != name):
		t.Fatalf("server %q referencing %v resolves without them: %v", name, referenced, err)
	case len(referenced) > 0 && !slices.Contains(referenced, missing.Variable):
		t.Fatalf("server %q names %q missing", name, missing.Variable)
	}
}
