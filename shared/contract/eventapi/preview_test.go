package eventapi

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPromptPreviewKeepsTheFirstLineOnly(t *testing.T) {
	long := strings.Repeat("é", MaxPromptPreview+30)
	for _, tc := range []struct{ prompt, want string }{
		{"Review src/a.go for races.\nThe rest of the prompt, which no event keeps.", "Review src/a.go for races."},
		{"\n\n   \n  Review b.go  \r\nmore", "Review b.go"},
		{"", ""},
		{" \n\t\n", ""},
		{long, strings.Repeat("é", MaxPromptPreview-1) + "…"},
		{strings.Repeat("x", MaxPromptPreview), strings.Repeat("x", MaxPromptPreview)},
	} {
		got := PromptPreview(tc.prompt)
		if got != tc.want {
			t.Errorf("PromptPreview(%.40q) = %q, want %q", tc.prompt, got, tc.want)
		}
		if n := utf8.RuneCountInString(got); n > MaxPromptPreview {
			t.Errorf("PromptPreview(%.40q) has %d characters, more than %d", tc.prompt, n, MaxPromptPreview)
		}
	}
}
