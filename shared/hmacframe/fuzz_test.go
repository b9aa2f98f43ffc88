package hmacframe_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/hmacframe"
)

// FuzzUnframe checks that a framed document comes back whole whatever it
// contains and whatever partial line precedes its frame (a workflow that
// wrote without a newline), and that no line verifies under another key.
func FuzzUnframe(f *testing.F) {
	f.Add("", `{"a":1}`)
	f.Add("junk ", `{"output":"ok"}`)
	f.Add("", `{"output":"a line that starts with stratos-result and goes on"}`)
	f.Add("stratos-result ", `{"a":1}`)
	f.Add("stratos-result "+strings.Repeat("0", 64)+" ", `{"a":1}`)
	f.Add("", `{"quoted":"stratos-result `+strings.Repeat("ab", 32)+` {}"}`)
	f.Fuzz(func(t *testing.T, partial, doc string) {
		if strings.ContainsAny(partial, "\n") || strings.ContainsAny(doc, "\n") || strings.HasSuffix(doc, "\r") {
			return // not one line: the writer's JSON never holds a newline
		}
		if strings.Count(partial+doc, "stratos-result ") >= 8 {
			return // only a writer forging frames puts this many tags on a line (see Unframe)
		}
		line := append([]byte(partial), framer.Frame([]byte(doc))...)
		got, ok := framer.Unframe(line)
		if !ok || string(got) != doc {
			t.Fatalf("Unframe(%q) = %q, %v; want the document %q", line, got, ok, doc)
		}
		other := hmacframe.New("stratos-result", []byte("another key of thirty-two bytes!"))
		if got, ok := other.Unframe(line); ok {
			t.Fatalf("a frame under another key verified: %q -> %q", line, got)
		}
	})
}

// FuzzReader checks the reader over a channel of frames and other lines:
// it returns exactly the documents of the framed lines that fit its line
// limit, in order, and counts every other byte as ignored. Lines of the
// input that start with "F " are framed (their rest is the document); the
// others are written as they are.
func FuzzReader(f *testing.F) {
	f.Add("F {\"a\":1}\n", uint16(100))
	f.Add("hello\nF {\"a\":1}\nworld\nF {\"b\":2}", uint16(200))
	f.Add("F {\"a\":1}\nF "+strings.Repeat("x", 300)+"\nF {}\n", uint16(120))
	f.Add(strings.Repeat("y", 70000)+"\nF {\"after\":\"a long line\"}\n", uint16(65535))
	f.Fuzz(func(t *testing.T, input string, maxLine uint16) {
		var stream bytes.Buffer
		var want []string
		ignored := 0
		lines := strings.SplitAfter(input, "\n")
		for _, l := range lines {
			if doc, ok := strings.CutPrefix(l, "F "); ok && strings.HasSuffix(doc, "\n") && !strings.HasSuffix(doc, "\r\n") {
				framed := framer.Frame([]byte(strings.TrimSuffix(doc, "\n")))
				stream.Write(framed)
				if len(framed) <= int(maxLine) {
					want = append(want, strings.TrimSuffix(doc, "\n"))
				} else {
					ignored += len(framed)
				}
				continue
			}
			stream.WriteString(l)
			ignored += len(l)
		}
		r := hmacframe.NewReader(&stream, framer, int(maxLine))
		var got []string
		for {
			doc, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("Next: %v", err)
			}
			got = append(got, string(doc))
		}
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) {
			t.Fatalf("documents %q, want %q", got, want)
		}
		if r.Ignored() != ignored {
			t.Fatalf("Ignored() = %d, want %d", r.Ignored(), ignored)
		}
	})
}
