package names

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// Names come from two lists of 256 distinct words each
// (docs/design/worktrees.md); the words end up in directory and branch names,
// so they must be lowercase and ref-safe.
func TestWordListsHave256DistinctRefSafeWords(t *testing.T) {
	lower := regexp.MustCompile(`^[a-z]+$`)
	for listName, words := range map[string][]string{"adjectives": Adjectives(), "nouns": Nouns()} {
		if len(words) != 256 {
			t.Errorf("%s: %d words, want 256", listName, len(words))
		}
		seen := map[string]bool{}
		for _, w := range words {
			if seen[w] {
				t.Errorf("%s: duplicate word %q", listName, w)
			}
			seen[w] = true
			if !lower.MatchString(w) {
				t.Errorf("%s: word %q is not lowercase ASCII letters", listName, w)
			}
			if err := Validate(w); err != nil {
				t.Errorf("%s: %v", listName, err)
			}
		}
	}
}

// git itself is the judge of ref safety: every adjective and every noun, in
// a branch name of the form Stratos creates, must pass check-ref-format.
func TestWordsFormValidGitBranchNames(t *testing.T) {
	adjectives, nouns := Adjectives(), Nouns()
	for i := range adjectives {
		ref := "refs/heads/stratos/" + adjectives[i] + "-" + nouns[len(nouns)-1-i]
		if out, err := exec.Command("git", "check-ref-format", ref).CombinedOutput(); err != nil {
			t.Fatalf("git check-ref-format %s: %v %s", ref, err, out)
		}
	}
}

func TestGeneratorDrawsFromBothLists(t *testing.T) {
	g := NewGenerator()
	adj, noun := toSet(Adjectives()), toSet(Nouns())
	distinct := map[string]bool{}
	for range 200 {
		n := g.Next()
		a, b, ok := strings.Cut(n, "-")
		if !ok || !adj[a] || !noun[b] {
			t.Fatalf("name %q is not adjective-noun from the lists", n)
		}
		distinct[n] = true
	}
	// 200 draws from 65536 names: a generator stuck on a few values would
	// show up here; a working one repeats almost never.
	if len(distinct) < 150 {
		t.Fatalf("only %d distinct names in 200 draws", len(distinct))
	}
}

func TestValidate(t *testing.T) {
	for _, ok := range []string{"feature-x", "a", "Fix_1.2", "brave-otter"} {
		if err := Validate(ok); err != nil {
			t.Errorf("Validate(%q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []string{"", ".registry", "-x", "a/b", "a..b", "x.lock", "x.", "a b", "ü", strings.Repeat("a", 101)} {
		if err := Validate(bad); err == nil {
			t.Errorf("Validate(%q) = nil, want an error", bad)
		}
	}
}

func toSet(words []string) map[string]bool {
	s := map[string]bool{}
	for _, w := range words {
		s[w] = true
	}
	return s
}
