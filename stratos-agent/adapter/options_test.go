package adapter

import (
	"bytes"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/stratos-agent/adapter/catalog"
)

func TestWithDefaultsFillsOnlyUnsetFields(t *testing.T) {
	d := Options{}.WithDefaults()
	if d.Log == nil || d.Environ == nil || d.Stderr == nil || d.Catalog == nil || d.MCPServers == nil {
		t.Fatalf("WithDefaults left a field unset: %+v", d)
	}
	if _, ok := d.Catalog.(catalog.Sibling); !ok {
		t.Errorf("default catalog = %T, want catalog.Sibling (stratos-models)", d.Catalog)
	}

	var stderr bytes.Buffer
	log := hclog.NewNullLogger()
	env := func() []string { return []string{"A=1"} }
	set := Options{Log: log, Environ: env, Stderr: &stderr}.WithDefaults()
	if set.Log != log || set.Stderr != &stderr || set.Environ()[0] != "A=1" {
		t.Errorf("WithDefaults replaced a field that was set: %+v", set)
	}
	if s, ok := set.Catalog.(catalog.Sibling); !ok || s.Stderr != &stderr {
		t.Errorf("default catalog = %#v, want one writing to the given Stderr", set.Catalog)
	}
}
