// Package names draws fresh adjective-noun worktree names and validates
// names supplied by users. A name is used both as a directory under
// .stratos/worktrees/ and inside the branch name stratos/<name>, so it must be
// safe as a single path component and as part of a git ref.
package names

import (
	_ "embed"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
)

//go:embed words/adjectives.txt
var adjectivesText string

//go:embed words/nouns.txt
var nounsText string

// Adjectives returns the adjective list (one word per line in words/adjectives.txt).
func Adjectives() []string { return splitWords(adjectivesText) }

// Nouns returns the noun list (one word per line in words/nouns.txt).
func Nouns() []string { return splitWords(nounsText) }

func splitWords(text string) []string { return strings.Fields(text) }

// Generator draws random adjective-noun names. It holds the parsed lists so a
// retry loop does not re-split them on every draw.
type Generator struct {
	adjectives, nouns []string
	rng               *rand.Rand
}

// NewGenerator returns a Generator seeded from the runtime's random source.
func NewGenerator() *Generator {
	return &Generator{adjectives: Adjectives(), nouns: Nouns(), rng: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))}
}

// Next returns a random name such as "brave-otter".
func (g *Generator) Next() string {
	return g.adjectives[g.rng.IntN(len(g.adjectives))] + "-" + g.nouns[g.rng.IntN(len(g.nouns))]
}

// validName allows letters, digits, '.', '_' and '-', starting with a letter
// or digit: a single path component that git accepts inside a ref name.
var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// MaxLen bounds a name so that paths and ref names stay reasonable.
const MaxLen = 100

// Validate returns an error explaining why name cannot be a worktree name, or
// nil when it can.
func Validate(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("worktree name is empty")
	case len(name) > MaxLen:
		return fmt.Errorf("worktree name %q is longer than %d characters", name, MaxLen)
	case !validName.MatchString(name):
		return fmt.Errorf("worktree name %q may contain only letters, digits, '.', '_' and '-', and must start with a letter or digit", name)
	case strings.Contains(name, ".."):
		return fmt.Errorf("worktree name %q must not contain \"..\" (git refuses it in branch names)", name)
	case strings.HasSuffix(name, ".") || strings.HasSuffix(name, ".lock"):
		return fmt.Errorf("worktree name %q must not end with \".\" or \".lock\" (git refuses it in branch names)", name)
	}
	return nil
}
