package pipeline

import (
	"errors"
	"testing"

	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// What was discovered before the root lock is used under it only for the
// declaration it was discovered with: a server whose declaration changed
// while the build waited is discovered again.
func TestDiscoveredAheadOnlyForTheSameDeclaration(t *testing.T) {
	decl := mcpdecl.Server{Name: "files", Transport: mcpdecl.TransportStdio, Command: "srv", Args: []string{"a"}}
	failure := errors.New("gone")
	ahead := mcpDiscovered{{dir: "/w", server: "files"}: {decl: decl, err: failure}}
	if f, ok := ahead.take("/w", decl); !ok || !errors.Is(f.err, failure) {
		t.Fatalf("same declaration: %v, %v", f, ok)
	}
	changed := decl
	changed.Args = []string{"b"}
	if _, ok := ahead.take("/w", changed); ok {
		t.Error("a changed declaration took what the old one found")
	}
	if _, ok := ahead.take("/other", decl); ok {
		t.Error("another workflow took what this one found")
	}
	var none mcpDiscovered
	if _, ok := none.take("/w", decl); ok {
		t.Error("nothing discovered ahead, yet something taken")
	}
}
