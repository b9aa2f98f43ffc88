package mcpdecl

import (
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// reference is ${NAME}; "$$" writes a literal "$".
// Compiled on first use rather than at start, which every process that
// links the package would pay whether it uses it or not.
var reference = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}`) })

// checkSyntax returns why value's references are malformed, "" when fine.
func checkSyntax(value string) string {
	rest := reference().ReplaceAllString(value, "")
	if i := strings.Index(rest, "${"); i >= 0 {
		return fmt.Sprintf("malformed environment reference in %q (write ${NAME}, NAME made of letters, digits and _; $$ for a literal $)", value)
	}
	return ""
}

// Lookup returns an environment variable's value (os.LookupEnv).
type Lookup func(name string) (string, bool)

// MissingVariableError says a ${NAME} reference names an unset or empty
// variable (an empty credential is as good as none, and a script cannot
// always unset a variable).
type MissingVariableError struct {
	Server, Field, Variable string
}

func (e *MissingVariableError) Error() string {
	return fmt.Sprintf("%s: environment variable %s is not set or empty (MCP server %q references it as ${%s})", e.Field, e.Variable, e.Server, e.Variable)
}

// Resolve returns s with every ${NAME} reference replaced by the variable's
// value and its paths made absolute against workflowDir (see
// resolvePaths): every consumer — build discovery, direct clients and the
// harnesses' own configuration — then starts the same program with the same
// arguments, whatever directory it starts it in. The first unset variable is
// a *MissingVariableError naming it and the field.
func (s Server) Resolve(workflowDir string, lookup Lookup) (Server, error) {
	out := s
	out.Args = slices.Clone(s.Args)
	out.Env = maps.Clone(s.Env)
	out.Headers = maps.Clone(s.Headers)
	var firstErr error
	sub := func(field, value string) string {
		return reference().ReplaceAllStringFunc(value, func(ref string) string {
			if ref == "$$" {
				return "$"
			}
			name := ref[2 : len(ref)-1]
			v, ok := lookup(name)
			if (!ok || v == "") && firstErr == nil {
				firstErr = &MissingVariableError{Server: s.Name, Field: field, Variable: name}
			}
			return v
		})
	}
	path := "mcp.servers." + s.Name
	out.Command = sub(path+".command", s.Command)
	for i := range out.Args {
		out.Args[i] = sub(fmt.Sprintf("%s.args[%d]", path, i), out.Args[i])
	}
	for _, k := range slices.Sorted(maps.Keys(out.Env)) {
		out.Env[k] = sub(path+".env."+k, out.Env[k])
	}
	out.Cwd = sub(path+".cwd", s.Cwd)
	out.URL = sub(path+".url", s.URL)
	for _, k := range slices.Sorted(maps.Keys(out.Headers)) {
		out.Headers[k] = sub(path+".headers."+k, out.Headers[k])
	}
	if s.OAuth != nil {
		o := *s.OAuth
		o.Scopes = slices.Clone(s.OAuth.Scopes)
		o.ClientID = sub(path+".oauth.clientId", o.ClientID)
		o.ClientSecret = sub(path+".oauth.clientSecret", o.ClientSecret)
		o.PrivateKey = sub(path+".oauth.privateKey", o.PrivateKey)
		o.ClientMetadataURL = sub(path+".oauth.clientMetadataUrl", o.ClientMetadataURL)
		if s.OAuth.IdP != nil {
			idp := *s.OAuth.IdP
			idp.TokenURL = sub(path+".oauth.idp.tokenUrl", idp.TokenURL)
			idp.ClientID = sub(path+".oauth.idp.clientId", idp.ClientID)
			idp.ClientSecret = sub(path+".oauth.idp.clientSecret", idp.ClientSecret)
			idp.IDToken = sub(path+".oauth.idp.idToken", idp.IDToken)
			o.IdP = &idp
		}
		out.OAuth = &o
	}
	if firstErr != nil {
		return Server{}, firstErr
	}
	if out.Transport == TransportStdio {
		out.resolvePaths(workflowDir)
	}
	return out, nil
}

// resolvePaths applies the one rule for a stdio server's relative paths:
// like every other path in workflow.yaml they are relative to the workflow
// directory, not to whichever directory the server happens to be started
// in (the workflow directory for Stratos's own clients, the agent's working
// directory for a harness). A command with a slash is a path; a bare name
// stays a PATH lookup. An argument is a path only when written as one
// (./… or ../…): Stratos cannot know what a server does with "src" or
// "@scope/pkg". A relative cwd is a path; no cwd means the workflow
// directory (a harness gets no cwd then; see mcpconfig).
func (s *Server) resolvePaths(workflowDir string) {
	if strings.ContainsRune(s.Command, '/') && !filepath.IsAbs(s.Command) {
		s.Command = filepath.Join(workflowDir, s.Command)
	}
	for i, a := range s.Args {
		if isExplicitlyRelative(a) {
			s.Args[i] = filepath.Join(workflowDir, a)
		}
	}
	switch {
	case s.Cwd == "":
		s.Cwd = workflowDir
	case !filepath.IsAbs(s.Cwd):
		s.Cwd = filepath.Join(workflowDir, s.Cwd)
	}
}

// isExplicitlyRelative reports whether an argument is written as a
// relative path: ./x or ../x.
func isExplicitlyRelative(arg string) bool {
	return strings.HasPrefix(arg, "./") || strings.HasPrefix(arg, "../")
}
