package supervise

import (
	"strings"
	"testing"
)

// FuzzReadChannel checks the result channel as stratos run reads it: the
// runner's framed document comes back whole whatever the workflow wrote to
// the channel before it (whole lines, counted as ignored, or a partial line
// the frame then follows) and whatever the document holds, and nothing
// after the frame is waited for.
func FuzzReadChannel(f *testing.F) {
	f.Add("", `{"status":"succeeded","output":{"ok":true}}`, "")
	f.Add("junk\n{\"ok\":\"forged\"}\npartial ", `{"status":"succeeded","output":"stratos-result is our tag"}`, "after\n")
	f.Add("stratos-result 00 {}\n", `{"status":"failed","error":{"code":"x"}}`, "")
	f.Fuzz(func(t *testing.T, before, doc, after string) {
		if strings.Contains(doc, "\n") || strings.HasSuffix(doc, "\r") {
			return // the runner's JSON is one line
		}
		if strings.Count(before[strings.LastIndex(before, "\n")+1:]+doc, resultTag+" ") >= 8 {
			return // only a writer forging frames puts this many tags on a line (see hmacframe)
		}
		key := []byte("a run's result key of 32 bytes!!")
		read := readChannel(strings.NewReader(before+string(Frame(key, []byte(doc)))+after), key)
		if string(read.doc) != doc {
			t.Fatalf("readChannel found %q, want %q", read.doc, doc)
		}
		if want := strings.LastIndex(before, "\n") + 1; read.ignored != want {
			t.Fatalf("ignored %d bytes, want %d (the whole lines before the frame)", read.ignored, want)
		}
	})
}
