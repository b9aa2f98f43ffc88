package mcpdecl

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

func parseYAML(t *testing.T, src string) (Servers, []Problem) {
	t.Helper()
	var section any
	if err := yaml.Unmarshal([]byte(src), &section); err != nil {
		t.Fatal(err)
	}
	return Parse(section)
}

func TestParseValidServers(t *testing.T) {
	servers, problems := parseYAML(t, `
servers:
  files:
    command: node
    args: [server.js, --root, "${HOME}"]
    env: {LOG_LEVEL: debug, GITHUB_TOKEN: "${GITHUB_TOKEN}"}
    cwd: tools
  github:
    url: https://api.example.test/mcp
    headers: {Authorization: "Bearer ${GITHUB_TOKEN}"}
    oauth: {scopes: [repo]}
  typed:
    type: http
    url: http://127.0.0.1:9/mcp
  machine:
    url: https://m.example.test/mcp
    oauth: {grant: client_credentials, clientId: svc, clientSecret: "${SVC_SECRET}"}
  published:
    url: https://p.example.test/mcp
    oauth: {clientMetadataUrl: "https://stratos.example.test/oauth/client.json"}
    elicitation: accept-defaults
    sampling: decision
`)
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	if got := strings.Join(servers.Names(), ","); got != "files,github,machine,published,typed" {
		t.Fatalf("names = %s", got)
	}
	if s := servers["files"]; s.Transport != TransportStdio || s.Cwd != "tools" || len(s.Args) != 3 {
		t.Fatalf("files = %+v", s)
	}
	if s := servers["github"]; s.Transport != TransportHTTP || s.OAuth == nil || s.OAuth.Scopes[0] != "repo" {
		t.Fatalf("github = %+v", s)
	}
	if s := servers["machine"]; !s.OAuth.ClientCredentials() || servers["github"].OAuth.ClientCredentials() {
		t.Fatalf("machine = %+v: want the client-credentials grant there only", s.OAuth)
	}
	if s := servers["published"]; s.OAuth.ClientMetadataURL != "https://stratos.example.test/oauth/client.json" || s.Elicitation != ElicitationAcceptDefaults || s.Sampling != SamplingDecision {
		t.Fatalf("published = %+v, oauth %+v", s, s.OAuth)
	}
	if s := servers["files"]; s.Elicitation != "" || s.Sampling != "" {
		t.Fatalf("files.elicitation = %q, sampling = %q, want none (refuse, no sampling)", s.Elicitation, s.Sampling)
	}
}

func TestParseProblemsNameFieldPaths(t *testing.T) {
	cases := []struct{ yaml, field, message string }{
		{`servers: {a: {}}`, "mcp.servers.a", "needs a command (stdio) or a url"},
		{`servers: {a: {command: x, url: http://h}}`, "mcp.servers.a", "both command"},
		{`servers: {a: {type: sse, url: http://h}}`, "mcp.servers.a.type", `must be "stdio" or "http"`},
		{`servers: {a: {command: x, url2: y}}`, "mcp.servers.a.url2", "not a field of a stdio server"},
		{`servers: {a: {command: x, headers: {}}}`, "mcp.servers.a.headers", "not a field of a stdio server"},
		{`servers: {a: {command: x, args: [1]}}`, "mcp.servers.a.args[0]", "must be a string"},
		{`servers: {a: {command: x, env: {N: 1}}}`, "mcp.servers.a.env.N", "must be a string"},
		{`servers: {a: {url: ftp://h}}`, "mcp.servers.a.url", "http:// or https://"},
		{`servers: {a: {url: "http://h", headers: {Authorization: "Bearer abc"}}}`, "mcp.servers.a.headers.Authorization", "reference an environment variable"},
		{`servers: {a: {command: x, env: {API_KEY: abc}}}`, "mcp.servers.a.env.API_KEY", "credential"},
		{`servers: {a: {command: "${X"}}`, "mcp.servers.a.command", "malformed environment reference"},
		{`servers: {Bad: {command: x}}`, "mcp.servers.Bad", "must match"},
		{`servers: {a: {url: "http://h", oauth: {scope: x}}}`, "mcp.servers.a.oauth.scope", "unknown field"},
		{`servers: {a: {url: "http://h", oauth: {clientId: c, clientSecret: s3cret}}}`, "mcp.servers.a.oauth.clientSecret", "must be an environment reference"},
		{`servers: {a: {url: "http://h", oauth: {clientId: c, clientSecret: "x${S}"}}}`, "mcp.servers.a.oauth.clientSecret", "must be an environment reference"},
		{`servers: {a: {url: "http://h", oauth: {clientSecret: "${S}"}}}`, "mcp.servers.a.oauth.clientSecret", "needs oauth.clientId"},
		{`servers: {a: {url: "http://h", oauth: {grant: client_credentials, clientId: c}}}`, "mcp.servers.a.oauth.grant", "needs oauth.clientId and one of oauth.clientSecret and oauth.privateKey"},
		{`servers: {a: {url: "http://h", oauth: {grant: client_credentials, clientId: c, privateKey: "-----BEGIN"}}}`, "mcp.servers.a.oauth.privateKey", "must be an environment reference"},
		{`servers: {a: {url: "http://h", oauth: {clientId: c, privateKey: "${K}"}}}`, "mcp.servers.a.oauth.privateKey", "needs oauth.grant: client_credentials"},
		{`servers: {a: {url: "http://h", oauth: {grant: password, clientId: c}}}`, "mcp.servers.a.oauth.grant", `"password" is not a grant`},
		{`servers: {a: {url: "http://h", oauth: {clientId: "${C"}}}`, "mcp.servers.a.oauth.clientId", "malformed environment reference"},
		{`servers: {a: {url: "http://h", oauth: {grant: client_credentials, clientId: c, privateKey: "${K"}}}`, "mcp.servers.a.oauth.privateKey", "malformed environment reference"},
		{`servers: {a: {url: "http://h", oauth: {clientMetadataUrl: "http://c.example.test/client.json"}}}`, "mcp.servers.a.oauth.clientMetadataUrl", "must be an https:// URL"},
		{`servers: {a: {url: "http://h", oauth: {clientMetadataUrl: "https://c.example.test/"}}}`, "mcp.servers.a.oauth.clientMetadataUrl", "must have a path"},
		{`servers: {a: {url: "http://h", oauth: {clientMetadataUrl: "https://c.example.test/c.json#x"}}}`, "mcp.servers.a.oauth.clientMetadataUrl", "must not have a fragment"},
		{`servers: {a: {url: "http://h", oauth: {grant: client_credentials, clientId: c, clientSecret: "${S}", clientMetadataUrl: "https://c.example.test/c.json"}}}`, "mcp.servers.a.oauth.clientMetadataUrl", "is for a user's login"},
		{`servers: {a: {url: "http://h", oauth: {clientMetadataUrl: "https://${H"}}}`, "mcp.servers.a.oauth.clientMetadataUrl", "malformed environment reference"},
		{`servers: {a: {command: x, sampling: yes}}`, "mcp.servers.a.sampling", `"yes" is not a sampling policy (known: decision; leave it out to offer no sampling)`},
		{`servers: {a: {command: x, elicitation: ask}}`, "mcp.servers.a.elicitation", `"ask" is not an elicitation policy (known: refuse, accept-defaults)`},
		{`servers: {a: {url: "http://h", oauth: {grant: cross_app_access, clientId: c}}}`, "mcp.servers.a.oauth.grant", "cross_app_access needs oauth.clientId"},
		{`servers: {a: {url: "http://h", oauth: {grant: cross_app_access, clientId: c, idp: {tokenUrl: "https://idp/token", clientId: i}}}}`, "mcp.servers.a.oauth.idp.idToken", "is required for cross-app access"},
		{`servers: {a: {url: "http://h", oauth: {grant: cross_app_access, clientId: c, idp: {tokenUrl: "https://idp/token", clientId: i, idToken: eyJhbGciOi}}}}`, "mcp.servers.a.oauth.idp.idToken", "must be an environment reference"},
		{`servers: {a: {url: "http://h", oauth: {grant: cross_app_access, clientId: c, idp: {tokenUrl: "https://idp/token", clientId: i, idToken: "${T}", clientSecret: s3cret}}}}`, "mcp.servers.a.oauth.idp.clientSecret", "must be an environment reference"},
		{`servers: {a: {url: "http://h", oauth: {grant: cross_app_access, clientId: c, idp: {tokenUrl: "idp/token", clientId: i, idToken: "${T}"}}}}`, "mcp.servers.a.oauth.idp.tokenUrl", "must be an http:// or https:// URL"},
		{`servers: {a: {url: "http://h", oauth: {grant: cross_app_access, clientId: c, idp: {tokenUrl: "https://idp/token", clientId: i, idToken: "${T}", issuer: x}}}}`, "mcp.servers.a.oauth.idp.issuer", "unknown field"},
		{`servers: {a: {url: "http://h", oauth: {clientId: c, idp: {tokenUrl: "https://idp/token", clientId: i, idToken: "${T}"}}}}`, "mcp.servers.a.oauth.idp", "needs oauth.grant: cross_app_access"},
		{`other: 1`, "mcp.other", "unknown field"},
		{`servers: [a]`, "mcp.servers", "must be a mapping"},
		{`servers: {a: {command: x, connectTimeout: 30}}`, "mcp.servers.a.connectTimeout", "a duration with its unit"},
		{`servers: {a: {command: x, connectTimeout: soon}}`, "mcp.servers.a.connectTimeout", "positive duration"},
		{`servers: {a: {url: "http://h", connectTimeout: 0s}}`, "mcp.servers.a.connectTimeout", "positive duration"},
	}
	for _, c := range cases {
		_, problems := parseYAML(t, c.yaml)
		found := false
		for _, p := range problems {
			if p.Field == c.field && strings.Contains(p.Message, c.message) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: want %s: …%s…, got %v", c.yaml, c.field, c.message, problems)
		}
	}
}

// A server's connect timeout is declared per server, for either transport,
// with its unit; without one it is the default of seconds, and Resolve
// keeps it.
func TestConnectTimeout(t *testing.T) {
	servers, problems := parseYAML(t, `
servers:
  slow:
    command: npx
    connectTimeout: 2m
  web:
    url: http://127.0.0.1:9/mcp
    connectTimeout: 1500ms
  plain:
    command: node
`)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	for name, want := range map[string]time.Duration{"slow": 2 * time.Minute, "web": 1500 * time.Millisecond, "plain": DefaultConnectTimeout} {
		s, err := servers[name].Resolve("/w", func(string) (string, bool) { return "", false })
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Timeout(); got != want {
			t.Errorf("%s: Timeout() = %v, want %v", name, got, want)
		}
	}
	if DefaultConnectTimeout >= time.Minute {
		t.Errorf("DefaultConnectTimeout = %v: a server that never answers would hold a build for minutes", DefaultConnectTimeout)
	}
	if got := servers["slow"].TimeoutField(); got != "mcp.servers.slow.connectTimeout" {
		t.Errorf("TimeoutField() = %q", got)
	}
}

func TestResolveSubstitutesAndNamesMissingVariable(t *testing.T) {
	servers, problems := parseYAML(t, `
servers:
  gh:
    url: "https://${HOST}/mcp"
    headers: {Authorization: "Bearer ${GITHUB_TOKEN}", X-Cost: "$$5"}
  local:
    command: "${BIN}"
    cwd: sub
`)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	env := map[string]string{"HOST": "example.test", "GITHUB_TOKEN": "t0k"}
	lookup := func(n string) (string, bool) { v, ok := env[n]; return v, ok }
	gh, err := servers["gh"].Resolve("/w", lookup)
	if err != nil {
		t.Fatal(err)
	}
	if gh.URL != "https://example.test/mcp" || gh.Headers["Authorization"] != "Bearer t0k" || gh.Headers["X-Cost"] != "$5" {
		t.Fatalf("resolved = %+v", gh)
	}
	if servers["gh"].Headers["Authorization"] != "Bearer ${GITHUB_TOKEN}" {
		t.Fatal("Resolve changed the declaration")
	}
	_, err = servers["local"].Resolve("/w", lookup)
	var missing *MissingVariableError
	if !errors.As(err, &missing) || missing.Variable != "BIN" || missing.Field != "mcp.servers.local.command" {
		t.Fatalf("err = %v", err)
	}
	env["BIN"] = "srv"
	local, err := servers["local"].Resolve("/w", lookup)
	if err != nil || local.Cwd != "/w/sub" {
		t.Fatalf("local = %+v, %v", local, err)
	}
}

func TestResolveMakesStdioPathsRelativeToTheWorkflowDirectory(t *testing.T) {
	servers, problems := parseYAML(t, `
servers:
  script:
    command: ./bin/mcp.sh
    args: [./data/config.json, ../shared/tools.json, --verbose, ".", src, "@scope/server", /abs/file]
  named:
    command: node
    args: [./server.mjs]
    cwd: data
  nested:
    command: bin/server
    cwd: /srv
  web:
    url: http://127.0.0.1:9/mcp
`)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	resolve := func(name string) Server {
		t.Helper()
		s, err := servers[name].Resolve("/w/flow", func(string) (string, bool) { return "", false })
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	script := resolve("script")
	wantArgs := []string{"/w/flow/data/config.json", "/w/shared/tools.json", "--verbose", ".", "src", "@scope/server", "/abs/file"}
	if script.Command != "/w/flow/bin/mcp.sh" || !slices.Equal(script.Args, wantArgs) || script.Cwd != "/w/flow" {
		t.Fatalf("script = %q %q in %q", script.Command, script.Args, script.Cwd)
	}
	// A bare name stays a PATH lookup; ./ arguments are relative to the
	// workflow directory even when cwd points elsewhere.
	named := resolve("named")
	if named.Command != "node" || !slices.Equal(named.Args, []string{"/w/flow/server.mjs"}) || named.Cwd != "/w/flow/data" {
		t.Fatalf("named = %q %q in %q", named.Command, named.Args, named.Cwd)
	}
	if nested := resolve("nested"); nested.Command != "/w/flow/bin/server" || nested.Cwd != "/srv" {
		t.Fatalf("nested = %q in %q", nested.Command, nested.Cwd)
	}
	if web := resolve("web"); web.Cwd != "" || web.Command != "" {
		t.Fatalf("web = %+v", web)
	}
}

// The OAuth client of a declaration comes from the environment like every
// other credential-bearing field: ${NAME} in clientId and clientSecret is
// resolved (a literal ${CONF_CLIENT_ID} must never reach the authorization
// server), and an unset variable names the field.
func TestResolveOAuthClient(t *testing.T) {
	servers, problems := parseYAML(t, `
servers:
  wiki:
    url: https://wiki.example.test/mcp
    oauth: {clientId: "${CONF_CLIENT_ID}", clientSecret: "${CONF_CLIENT_SECRET}", scopes: [read], clientMetadataUrl: "https://${CONF_HOST}/client.json"}
`)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	env := map[string]string{"CONF_CLIENT_ID": "stratos-cli", "CONF_CLIENT_SECRET": "s3cret", "CONF_HOST": "c.example.test"}
	lookup := func(n string) (string, bool) { v, ok := env[n]; return v, ok }
	decl := servers["wiki"]
	wiki, err := decl.Resolve("/w", lookup)
	if err != nil {
		t.Fatal(err)
	}
	if wiki.OAuth.ClientID != "stratos-cli" || wiki.OAuth.ClientSecret != "s3cret" || wiki.OAuth.ClientMetadataURL != "https://c.example.test/client.json" ||
		wiki.OAuth.IdP != nil {
		t.Errorf("resolved oauth = %+v", *wiki.OAuth)
	}
	if decl.OAuth.ClientID != "${CONF_CLIENT_ID}" {
		t.Errorf("Resolve changed the declaration: %+v", *decl.OAuth)
	}
	delete(env, "CONF_CLIENT_SECRET")
	_, err = decl.Resolve("/w", lookup)
	var missing *MissingVariableError
	if !errors.As(err, &missing) || missing.Field != "mcp.servers.wiki.oauth.clientSecret" || missing.Variable != "CONF_CLIENT_SECRET" {
		t.Errorf("err = %v, want the missing CONF_CLIENT_SECRET of oauth.clientSecret", err)
	}
}

// A declaration is encoded for other processes and records; the client
// secret never is.
func TestClientSecretIsNeverEncoded(t *testing.T) {
	data, err := json.Marshal(Server{Name: "wiki", OAuth: &OAuth{ClientID: "c", ClientSecret: "s3cret", PrivateKey: "-----BEGIN PRIVATE KEY-----k3y"}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "s3cret") || strings.Contains(string(data), "k3y") {
		t.Errorf("encoded declaration carries the secret: %s", data)
	}
}

// Cross-app access: the identity provider's fields resolve from the
// environment, and neither its client secret nor the user's ID token is
// ever encoded.
func TestCrossAppAccessResolvesAndNeverEncodesTheIDToken(t *testing.T) {
	servers, problems := parseYAML(t, `
servers:
  tracker:
    url: https://tracker.example.test/mcp
    oauth:
      grant: cross_app_access
      clientId: stratos-at-tracker
      clientSecret: "${TRACKER_SECRET}"
      idp: {tokenUrl: "https://${IDP_HOST}/oauth2/token", clientId: stratos-at-acme, clientSecret: "${IDP_SECRET}", idToken: "${ACME_ID_TOKEN}"}
`)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	decl := servers["tracker"]
	if !decl.OAuth.Unattended() || decl.OAuth.ClientCredentials() {
		t.Fatalf("grant %q: want unattended, not client credentials", decl.OAuth.Grant)
	}
	env := map[string]string{"TRACKER_SECRET": "tr-s3cret", "IDP_HOST": "acme.example.test", "IDP_SECRET": "idp-s3cret", "ACME_ID_TOKEN": "id-t0ken"}
	got, err := decl.Resolve("/w", func(n string) (string, bool) { v, ok := env[n]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	idp := got.OAuth.IdP
	if idp.TokenURL != "https://acme.example.test/oauth2/token" || idp.ClientSecret != "idp-s3cret" || idp.IDToken != "id-t0ken" || decl.OAuth.IdP.IDToken != "${ACME_ID_TOKEN}" {
		t.Fatalf("resolved idp = %+v (declared %+v)", *idp, *decl.OAuth.IdP)
	}
	data, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "s3cret") || strings.Contains(string(data), "id-t0ken") || !strings.Contains(string(data), "acme.example.test") {
		t.Errorf("encoded declaration: %s", data)
	}
	delete(env, "ACME_ID_TOKEN")
	var missing *MissingVariableError
	if _, err := decl.Resolve("/w", func(n string) (string, bool) { v, ok := env[n]; return v, ok }); !errors.As(err, &missing) || missing.Field != "mcp.servers.tracker.oauth.idp.idToken" {
		t.Errorf("err = %v, want the missing ID token named", err)
	}
}
