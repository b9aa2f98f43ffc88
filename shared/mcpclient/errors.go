package mcpclient

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/stratoscli/stratos/shared/manifest"
)

// The stages a connect timeout bounds (TimeoutError.Stage).
const (
	// StageHandshake is starting or reaching the server and the protocol's
	// handshake: server/discover, or initialize with an initialize-era
	// server.
	StageHandshake = "handshake"
	// StageListTools is discovery's listing of the server's tools.
	StageListTools = "list-tools"
)

// TimeoutError says a server did not answer within its connect timeout.
// It names the server, the timeout and the field that raises it.
type TimeoutError struct {
	Server  string
	Stage   string // StageHandshake or StageListTools
	Timeout time.Duration
	// Field is the field path that raises the timeout
	// (mcp.servers.<name>.connectTimeout), and File the workflow.yaml that
	// declares the server ("" when unknown).
	Field, File string
	// Stderr holds the last lines a stdio server wrote on stderr.
	Stderr []string
	Err    error
}

func (e *TimeoutError) Error() string {
	what := "answer the MCP handshake (server/discover, initialize)"
	if e.Stage == StageListTools {
		what = "list its tools"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "MCP server %q did not %s within %s; if it needs longer to start, raise %s", e.Server, what, e.Timeout, e.Field)
	if e.File != "" {
		fmt.Fprintf(&b, " in %s", e.File)
	}
	fmt.Fprintf(&b, " (for example connectTimeout: %s)", longer(e.Timeout))
	b.WriteString(stderrText(e.Stderr))
	return b.String()
}

func (e *TimeoutError) Unwrap() error { return e.Err }

// longer suggests a timeout: twice this one, in whole seconds.
func longer(d time.Duration) string {
	return fmt.Sprintf("%ds", max(int((2*d).Round(time.Second)/time.Second), 1))
}

// ConnectError says a server broke the connection before it was ready. For
// a stdio server that exited, it says how, and what it last wrote on
// stderr (which usually says why).
type ConnectError struct {
	Server string
	// Status says how a stdio server ended by itself ("exited with status
	// 3"); "" when it did not, or for an HTTP server.
	Status string
	// Stderr holds the last lines a stdio server wrote on stderr.
	Stderr []string
	Err    error
}

func (e *ConnectError) Error() string {
	msg := fmt.Sprintf("connect to MCP server %q: %v", e.Server, e.Err)
	if e.Status != "" {
		msg = fmt.Sprintf("MCP server %q %s before it was ready (%v)", e.Server, e.Status, e.Err)
	}
	return msg + stderrText(e.Stderr)
}

func (e *ConnectError) Unwrap() error { return e.Err }

// stderrText is the end of a server's stderr for an error message, one
// indented line each; "" when it wrote nothing.
func stderrText(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return "; the last lines of its stderr:\n    " + strings.Join(lines, "\n    ")
}

// workflowFile is dir's workflow.yaml, "" without a directory.
func workflowFile(dir string) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, manifest.FileName)
}
