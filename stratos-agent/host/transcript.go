package host

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// A harness that cannot continue a session (the ACP harnesses) starts a
// new one for a resumed run's agent whose earlier executes were answered
// from the journal; that session's first prompt carries the conversation
// those executes had: their prompts (the journal keeps them for such a
// harness) and replies, oldest first, then the new prompt. The framing is
// built here, not in the SDK, because only the host knows whether the
// harness it selected continues the session natively (the conversation may
// also have run on another harness), and it renders the prompt the
// harness is sent.

// transcriptLimit bounds, in bytes, the carried exchanges (about 16k
// tokens): the oldest exchanges are left out, and the prompt says so, so
// that a long conversation neither crowds out the new prompt nor exceeds
// a model's context.
const transcriptLimit = 64 << 10

// transcript is the framing of a conversation's replayed exchanges before
// a new session's first prompt.
type transcript struct {
	// text goes before the first prompt ("" for none).
	text string
	// carried counts the exchanges in text; omitted those of the
	// conversation's calls it leaves out (too old for the limit, or their
	// prompts were not kept).
	carried, omitted int
}

// frameTranscript frames c's exchanges within limit bytes: the newest
// that fit, and when even the newest alone does not, that one with the
// middle of its prompt and reply cut.
func frameTranscript(c *agentproto.Continuation, limit int) transcript {
	ex := c.Transcript
	if len(ex) == 0 {
		return transcript{}
	}
	var blocks []string
	size := 0
	for i := len(ex) - 1; i >= 0; i-- {
		b := exchangeBlock(ex[i])
		if size+len(b) > limit {
			break
		}
		blocks = append(blocks, b)
		size += len(b)
	}
	if len(blocks) == 0 {
		e := ex[len(ex)-1]
		e.Prompt, e.Reply = cutMiddle(e.Prompt, limit/2), cutMiddle(e.Reply, limit/2)
		blocks = append(blocks, exchangeBlock(e))
	}
	omitted := max(c.Calls, len(ex)) - len(blocks)
	var b strings.Builder
	b.WriteString("This session continues an earlier conversation that could not be resumed. " +
		"Its exchanges follow, oldest first, between <earlier-conversation> tags: take them as what was already said and done, and do not answer their prompts again. " +
		"The new prompt follows the closing tag.\n\n<earlier-conversation>\n")
	if omitted > 0 {
		fmt.Fprintf(&b, "[the conversation's first %d exchange(s) are left out, to keep this short]\n", omitted)
	}
	for i := len(blocks) - 1; i >= 0; i-- {
		b.WriteString(blocks[i])
	}
	b.WriteString("</earlier-conversation>\n\nThe new prompt:\n\n")
	return transcript{text: b.String(), carried: len(blocks), omitted: omitted}
}

// exchangeBlock is one exchange as the transcript frames it.
func exchangeBlock(e agentproto.Exchange) string {
	return fmt.Sprintf("<exchange call=\"%d\">\n<prompt>\n%s\n</prompt>\n<reply>\n%s\n</reply>\n</exchange>\n", e.Call, e.Prompt, e.Reply)
}

// cutMiddle is s within about n bytes: its start and end, and between them
// how many bytes were cut.
func cutMiddle(s string, n int) string {
	if len(s) <= n {
		return s
	}
	keep := max(n-64, 0) / 2
	h, t := keep, len(s)-keep
	for h > 0 && !utf8.RuneStart(s[h]) {
		h--
	}
	for t < len(s) && !utf8.RuneStart(s[t]) {
		t++
	}
	head, tail := s[:h], s[t:]
	return fmt.Sprintf("%s\n[… %d bytes cut …]\n%s", head, len(s)-len(head)-len(tail), tail)
}
