// Package mcpauth keeps the OAuth credentials of the MCP servers workflows
// declare with `oauth:` and hands out access tokens that are fresh enough
// to use: `stratos mcp login` stores them, build discovery, `mcp tools`,
// direct clients and agent harnesses read them, and whoever finds a token
// about to expire refreshes it (under a file lock, so concurrent Stratos
// processes refresh once).
//
// Credentials live in one file per server identity under
// ~/.stratos/mcp-auth/ (directory 0700, files 0600, written atomically).
// Nothing here logs or prints a token; the records' String methods say
// only what a person may see.
package mcpauth

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/stratoscli/stratos/shared/atomicfile"
)

// DirName is the store's directory under the Stratos home (~/.stratos).
const DirName = "mcp-auth"

// Identity names whose credentials a record holds: the server's canonical
// resource URL and the client ID workflow.yaml declares ("" when the
// client registers itself dynamically). Two workflows declaring the same
// server share its login.
type Identity struct {
	Resource string `json:"resource"`
	ClientID string `json:"declaredClientId,omitempty"`
}

// IdentityOf returns the identity of a server at rawURL declared with
// clientID.
func IdentityOf(rawURL, clientID string) (Identity, error) {
	r, err := CanonicalResource(rawURL)
	if err != nil {
		return Identity{}, err
	}
	return Identity{Resource: r, ClientID: clientID}, nil
}

// CanonicalResource is the MCP server URL as an OAuth resource indicator:
// lower-case scheme and host, no default port, no fragment, no trailing
// slash (the form the MCP authorization spec calls canonical).
func CanonicalResource(rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not an http:// or https:// URL", rawURL)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	u.Host = host
	u.Fragment, u.RawFragment = "", ""
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = ""
	return u.String(), nil
}

// Record is what a login leaves for one server identity.
type Record struct {
	Identity
	// ClientID and ClientSecret are the client the tokens were issued to
	// (declared or dynamically registered); TokenURL and AuthStyle are
	// how to refresh them.
	// A secret declared in workflow.yaml (oauth.clientSecret) is not kept
	// here: it is read from the environment whenever it is needed.
	ClientID     string   `json:"clientId"`
	ClientSecret string   `json:"clientSecret,omitempty"`
	TokenURL     string   `json:"tokenUrl"`
	AuthStyle    int      `json:"authStyle,omitempty"`
	Scopes       []string `json:"scopes,omitempty"`
	AccessToken  string   `json:"accessToken"`
	TokenType    string   `json:"tokenType,omitempty"`
	RefreshToken string   `json:"refreshToken,omitempty"`
	// Expiry is when the access token expires; zero means it does not.
	Expiry time.Time `json:"expiry,omitzero"`
	// StepUpScopes are scopes the server asked for beyond the login's
	// (insufficient_scope): the next login requests them too.
	StepUpScopes []string `json:"stepUpScopes,omitempty"`
	// Grant is mcpdecl.GrantClientCredentials or GrantCrossAppAccess for
	// a token obtained without a login (renewed the same way, not
	// refreshed); empty for a user's login.
	Grant string `json:"grant,omitempty"`
}

// String describes the record without any credential.
func (r Record) String() string {
	return fmt.Sprintf("MCP credentials for %s (client %s, expiry %s, refreshable %t)", r.Resource, r.ClientID, r.Expiry.Format(time.RFC3339), r.RefreshToken != "")
}

// GoString keeps %#v from printing credentials too.
func (r Record) GoString() string { return r.String() }

// Remaining is how long the access token stays valid at now (a long time
// for a token without expiry).
func (r Record) Remaining(now time.Time) time.Duration {
	if r.Expiry.IsZero() {
		return 1<<63 - 1
	}
	return r.Expiry.Sub(now)
}

// Store is the credentials directory.
type Store struct{ dir string }

// Open returns the store under stratosHome (~/.stratos); the directory is
// made when the first record is saved.
func Open(stratosHome string) Store { return Store{dir: filepath.Join(stratosHome, DirName)} }

// Dir is the store's directory.
func (s Store) Dir() string { return s.dir }

// path is the record file of id: a hash, so URLs need no escaping and the
// file name tells nothing about the server.
func (s Store) path(id Identity) string {
	sum := sha256.Sum256([]byte(id.Resource + "\n" + id.ClientID))
	return filepath.Join(s.dir, hex.EncodeToString(sum[:12])+".json")
}

// ErrNotFound says no login is stored for an identity.
var ErrNotFound = errors.New("not logged in")

// Load returns the record of id, ErrNotFound when there is none.
func (s Store) Load(id Identity) (Record, error) {
	data, err := os.ReadFile(s.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return Record{}, ErrNotFound
	}
	if err != nil {
		return Record{}, fmt.Errorf("read MCP credentials: %w", err)
	}
	var r Record
	if err := json.Unmarshal(data, &r); err != nil {
		return Record{}, fmt.Errorf("read MCP credentials %s: %w", s.path(id), err)
	}
	if r.Identity != id {
		return Record{}, ErrNotFound
	}
	return r, nil
}

// Save writes r atomically, readable by its owner only.
func (s Store) Save(r Record) error {
	if err := s.ensureDir(); err != nil {
		return err
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encode MCP credentials: %w", err)
	}
	if err := atomicfile.WriteFile(s.path(r.Identity), append(data, '\n'), atomicfile.Private); err != nil {
		return fmt.Errorf("write MCP credentials: %w", err)
	}
	return nil
}

// Delete removes the record of id; it reports whether there was one.
func (s Store) Delete(id Identity) (bool, error) {
	err := os.Remove(s.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("remove MCP credentials: %w", err)
	}
	return true, nil
}

// List returns every stored record, by resource.
func (s Store) List() ([]Record, error) {
	matches, err := filepath.Glob(filepath.Join(s.dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var out []Record
	for _, m := range matches {
		data, err := os.ReadFile(m)
		if err != nil {
			return nil, fmt.Errorf("read MCP credentials: %w", err)
		}
		var r Record
		if json.Unmarshal(data, &r) == nil {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Resource < out[j].Resource })
	return out, nil
}

// ensureDir makes the store's directory, readable by its owner only.
func (s Store) ensureDir() error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("create the MCP credentials directory: %w", err)
	}
	// MkdirAll keeps an existing directory's mode; credentials must not
	// sit in one others can list.
	if err := os.Chmod(s.dir, 0o700); err != nil {
		return fmt.Errorf("restrict the MCP credentials directory: %w", err)
	}
	return nil
}
