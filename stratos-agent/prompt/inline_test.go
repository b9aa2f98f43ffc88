package prompt

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// An Inline parses a body once and renders it with each context given;
// renders of one body may run at once.
func TestInlineParsesABodyOnceAndRendersEachContext(t *testing.T) {
	var in Inline
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			want := fmt.Sprintf("turn %d: <%d>", i, i)
			got, err := in.Render("turn {{turn}}: {{prompt}}", map[string]any{"turn": i, "prompt": fmt.Sprintf("<%d>", i)})
			if err != nil || got != want {
				errs <- fmt.Errorf("Render = %q, %v; want %q", got, err, want)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if len(in.parsed) != 1 {
		t.Errorf("kept %d parses of one body, want 1", len(in.parsed))
	}
}

// A body that does not parse fails every time and is not kept; bodies past
// the bound are rendered without being kept.
func TestInlineKeepsOnlyGoodBodiesUpToItsBound(t *testing.T) {
	var in Inline
	for range 2 {
		if _, err := in.Render("{{#if}}", nil); err == nil || !strings.HasPrefix(err.Error(), "template: ") {
			t.Fatalf("a bad body: %v, want a template error", err)
		}
	}
	for i := range maxInline + 5 {
		body := fmt.Sprintf("%d {{x}}", i)
		if got, err := in.Render(body, map[string]any{"x": "y"}); err != nil || got != fmt.Sprintf("%d y", i) {
			t.Fatalf("Render(%q) = %q, %v", body, got, err)
		}
	}
	if len(in.parsed) != maxInline {
		t.Errorf("kept %d bodies, want the bound %d", len(in.parsed), maxInline)
	}
	var none *Inline
	if got, err := none.Render("{{x}}", map[string]any{"x": "z"}); err != nil || got != "z" {
		t.Errorf("a nil Inline: %q, %v", got, err)
	}
}
