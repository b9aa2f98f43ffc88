package opencode

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

//go:embed plugin.js
var pluginSource []byte

// pinnedVersion is the OpenCode version the isolated configuration's
// package stubs name (the version Stratos is tested against).
const pinnedVersion = "1.18.33"

// isolation is the private root of one session's OpenCode: XDG
// directories, a home, an empty managed-config directory and the
// generated plugin. Close removes it (a database in a state directory
// stays).
type isolation struct {
	root string
	// db is OpenCode's database, which holds its sessions: in the state
	// directory when the session keeps one for a later resume (it is what
	// continuing a session needs, and holds no credential: the link to the
	// credentials list, MCP logins and the logs stay in the private data
	// directory), else in the private data directory.
	db string
}

func (i isolation) path(parts ...string) string {
	return filepath.Join(append([]string{i.root}, parts...)...)
}

func (i isolation) configDir() string  { return i.path("xdg", "config", "opencode") }
func (i isolation) pluginFile() string { return i.path("plugin", "stratos-hooks.js") }

// newIsolation creates the private root. OpenCode installs
// @opencode-ai/plugin into every configuration directory and, once any
// plugin is configured, waits for that install before it serves a session;
// without a network that wait never ends. The stubs (a node_modules
// directory and a lock file naming the dependency) make it skip the
// install, so the server runs offline. The database is in stateDir when
// it is set.
func newIsolation(creds credentials, stateDir string) (isolation, error) {
	root, err := os.MkdirTemp("", "stratos-opencode-")
	if err != nil {
		return isolation{}, err
	}
	i := isolation{root: root, db: filepath.Join(root, "xdg", "data", "opencode", dbFile)}
	if stateDir != "" {
		i.db = filepath.Join(stateDir, dbFile)
	}
	if err := i.populate(creds); err != nil {
		os.RemoveAll(root)
		return isolation{}, err
	}
	return i, nil
}

func (i isolation) populate(creds credentials) error {
	for _, d := range [][]string{{"xdg", "config", "opencode", "node_modules"}, {"xdg", "data", "opencode"}, {"xdg", "cache"},
		{"xdg", "state"}, {"home"}, {"managed"}, {"plugin"}} {
		if err := os.MkdirAll(i.path(d...), 0o700); err != nil {
			return err
		}
	}
	dep := fmt.Sprintf(`{"@opencode-ai/plugin":%q}`, pinnedVersion)
	files := map[string]string{
		filepath.Join(i.configDir(), "package.json"):      `{"dependencies":` + dep + `}`,
		filepath.Join(i.configDir(), "package-lock.json"): `{"lockfileVersion":3,"packages":{"":{"dependencies":` + dep + `}}}`,
		i.pluginFile(): string(pluginSource),
	}
	for name, content := range files {
		if err := os.WriteFile(name, []byte(content), 0o600); err != nil {
			return err
		}
	}
	if creds.StoredFile != "" {
		return os.Symlink(creds.StoredFile, i.path("xdg", "data", "opencode", "auth.json"))
	}
	return nil
}

// dbFile is the name of OpenCode's database (SQLite, with its -wal and
// -shm files beside it).
const dbFile = "opencode.db"

// serverSecrets are the variables of the server's environment that hold
// its secrets: the password every request carries and the configuration,
// which holds the plugin's hook token. The server's children (the agent's
// commands, local MCP servers) run without them.
var serverSecrets = []string{envPassword, envConfigContent}

// envPassword holds the password of the server's HTTP API.
const envPassword = "OPENCODE_SERVER_PASSWORD"

// env is the server's environment: the user's (provider keys and base
// URLs, PATH for the agent's commands) with OpenCode pointed at the
// private root and the isolation's database, and its project
// configuration, Claude Code compatibility, external skills, bundled auth
// plugins, catalog refresh, auto-update, LSP downloads and sharing
// switched off.
func (i isolation) env(base []string, config []byte, password string) []string {
	set := [][2]string{
		{"XDG_CONFIG_HOME", i.path("xdg", "config")},
		{"XDG_DATA_HOME", i.path("xdg", "data")},
		{"XDG_CACHE_HOME", i.path("xdg", "cache")},
		{"XDG_STATE_HOME", i.path("xdg", "state")},
		// An absolute path is the database itself (a relative one would be
		// under the data directory): never the user's own.
		{"OPENCODE_DB", i.db},
		// What OpenCode takes for the home (~/.opencode is read even with
		// project configuration off); HOME stays the user's for commands.
		{"OPENCODE_TEST_HOME", i.path("home")},
		{"OPENCODE_TEST_MANAGED_CONFIG_DIR", i.path("managed")},
		{"OPENCODE_DISABLE_PROJECT_CONFIG", "1"},
		{"OPENCODE_DISABLE_CLAUDE_CODE", "1"},
		{"OPENCODE_DISABLE_EXTERNAL_SKILLS", "1"},
		{"OPENCODE_DISABLE_DEFAULT_PLUGINS", "1"},
		{"OPENCODE_DISABLE_MODELS_FETCH", "1"},
		{"OPENCODE_DISABLE_AUTOUPDATE", "1"},
		{"OPENCODE_DISABLE_LSP_DOWNLOAD", "1"},
		{"OPENCODE_DISABLE_SHARE", "1"},
		{envConfigContent, string(config)},
		{envPassword, password},
	}
	env := base
	for _, kv := range []string{"OPENCODE_CONFIG", "OPENCODE_CONFIG_DIR", "OPENCODE_PERMISSION", "OPENCODE_PURE"} {
		env = without(env, kv)
	}
	for _, kv := range set {
		env = withEnv(env, kv[0], kv[1])
	}
	return env
}

func without(env []string, key string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != key {
			out = append(out, kv)
		}
	}
	return out
}

func (i isolation) remove() {
	if i.root != "" {
		os.RemoveAll(i.root)
	}
}
