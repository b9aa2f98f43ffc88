package adapter

import (
	"io"
	"os"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/stratos-agent/adapter/catalog"
	"github.com/stratoscli/stratos/stratos-agent/adapter/mcpconfig"
)

// Options configure a harness adapter's factory: what every adapter takes
// from the host (or from a test) besides the agent's Spec. The zero value
// is production once WithDefaults fills it: the inherited environment, the
// catalog through stratos-models, MCP servers from workflow.yaml.
type Options struct {
	Log hclog.Logger
	// Environ is the environment the harness inherits (default os.Environ).
	Environ func() []string
	// Catalog resolves models and each provider's native configuration
	// (default: stratos-models).
	Catalog catalog.Catalog
	// MCPServers resolves the selected MCP servers (default: workflow.yaml).
	MCPServers mcpconfig.Resolver
	// Stderr receives the catalog tool's diagnostics (default os.Stderr).
	Stderr io.Writer
}

// WithDefaults returns o with every unset field set to its production
// default.
func (o Options) WithDefaults() Options {
	if o.Log == nil {
		o.Log = hclog.NewNullLogger()
	}
	if o.Environ == nil {
		o.Environ = os.Environ
	}
	if o.Stderr == nil {
		o.Stderr = os.Stderr
	}
	if o.Catalog == nil {
		o.Catalog = catalog.Sibling{Stderr: o.Stderr}
	}
	if o.MCPServers == nil {
		o.MCPServers = mcpconfig.FromWorkflow
	}
	return o
}
