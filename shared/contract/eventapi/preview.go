package eventapi

import (
	"strings"
	"unicode"
)

// PromptPreview is what an agent-start event keeps of a prompt: its first
// line that is not blank, its spaces trimmed, cut to MaxPromptPreview
// characters (an ellipsis marks the cut).
func PromptPreview(prompt string) string {
	for line := range strings.Lines(prompt) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		runes := []rune(line)
		if len(runes) <= MaxPromptPreview {
			return line
		}
		return strings.TrimRightFunc(string(runes[:MaxPromptPreview-1]), unicode.IsSpace) + "…"
	}
	return ""
}
