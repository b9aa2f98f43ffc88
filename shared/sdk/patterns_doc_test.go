package sdk_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/toolchain/toolchaintest"
)

// tsBlock is one ```ts fenced block of a Markdown page.
var tsBlock = regexp.MustCompile("(?s)```ts\n(.*?)```")

// TestPatternsTypeCheck compiles every TypeScript example of
// docs/patterns.md against the committed declarations, with the flags
// workflows are compiled with: the page promises they compile as they stand.
func TestPatternsTypeCheck(t *testing.T) {
	tc := toolchaintest.Ensure(t)
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "patterns.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := tsBlock.FindAllSubmatch(page, -1)
	if len(blocks) < 3 {
		t.Fatalf("docs/patterns.md has %d ts examples, want at least 3 (fan-out/reduce, adversarial verification, tournament)", len(blocks))
	}
	work := scratchPackage(t, tc)
	dir := filepath.Join(work, "patterns")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var files []string
	for i, b := range blocks {
		// Each example is its own workflow.ts; the SDK is the committed dist.
		src := strings.ReplaceAll(string(b[1]), `"@stratoscli/stratos"`, `"../dist/index.js"`)
		name := filepath.Join("patterns", fmt.Sprintf("example%d.ts", i+1))
		if err := os.WriteFile(filepath.Join(work, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	args := append(tc.CompilerFlags(), "--noEmit")
	out, err := tc.TscCommand(context.Background(), work, append(args, files...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("docs/patterns.md examples do not compile (%v; example<n> is the page's n-th ts block):\n%s", err, out)
	}
}
