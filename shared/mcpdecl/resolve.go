package mcpdecl

import (
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// reference is ${NAME}; "$$" writes a literal "$".
var reference = regexp.MustCompile(`\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// checkSyntax returns why value's references are malformed, "" when fine.
func checkSyntax(value string) string {
	rest := reference.ReplaceAllString(value, "")
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
// value and a relative cwd made absolute against workflowDir. The first
// unset variable is a *MissingVariableError naming it and the field.
func (s Server) Resolve(workflowDir string, lookup Lookup) (Server, error) {
	out := s
	out.Args = slices.Clone(s.Args)
	out.Env = maps.Clone(s.Env)
	out.Headers = maps.Clone(s.Headers)
	var firstErr error
	sub := func(field, value string) string {
		return reference.ReplaceAllStringFunc(value, func(ref string) string {
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
	for _, k := range sortedKeys(out.Env) {
		out.Env[k] = sub(path+".env."+k, out.Env[k])
	}
	out.Cwd = sub(path+".cwd", s.Cwd)
	out.URL = sub(path+".url", s.URL)
	for _, k := range sortedKeys(out.Headers) {
		out.Headers[k] = sub(path+".headers."+k, out.Headers[k])
	}
	if firstErr != nil {
		return Server{}, firstErr
	}
	if out.Transport == TransportStdio {
		switch {
		case out.Cwd == "":
			out.Cwd = workflowDir
		case !filepath.IsAbs(out.Cwd):
			out.Cwd = filepath.Join(workflowDir, out.Cwd)
		}
	}
	return out, nil
}
