package hmacframe_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/hmacframe"
)

var (
	key    = []byte("0123456789abcdef0123456789abcdef")
	framer = hmacframe.New("stratos-result", key)
	doc    = []byte(`{"a":1}`)
)

// TestFrameIsTheWireFormat pins the bytes the SDK's TypeScript side writes:
// "<tag> <hex HMAC-SHA256 of the JSON> <JSON>\n", computed here
// independently of the package.
func TestFrameIsTheWireFormat(t *testing.T) {
	m := hmac.New(sha256.New, key)
	m.Write(doc)
	want := "stratos-result " + hex.EncodeToString(m.Sum(nil)) + " " + string(doc) + "\n"
	if got := string(framer.Frame(doc)); got != want {
		t.Errorf("Frame = %q, want %q", got, want)
	}
}

func TestUnframe(t *testing.T) {
	framed := string(framer.Frame(doc))
	macHex := strings.Fields(framed)[1]
	for _, c := range []struct {
		name string
		line string
		ok   bool
	}{
		{"framed", framed, true},
		{"without its newline", strings.TrimSuffix(framed, "\n"), true},
		{"with CRLF", strings.TrimSuffix(framed, "\n") + "\r\n", true},
		{"after a partial line", "junk " + framed, true},
		{"other key", string(hmacframe.New("stratos-result", []byte("other")).Frame(doc)), false},
		{"wrong tag", string(hmacframe.New("stratos-definition", key).Frame(doc)), false},
		{"after a partial line without a space", "abc" + framed, true},
		{"after a partial line ending in the tag", "stratos-result " + framed, true},
		{"plain JSON", string(doc), false},
		{"no MAC", "stratos-result " + string(doc), false},
		{"forged MAC", "stratos-result " + strings.Repeat("0", 64) + " " + string(doc), false},
		{"MAC not hex", "stratos-result " + strings.Repeat("z", 64) + " " + string(doc), false},
		{"truncated MAC", "stratos-result " + macHex[:32] + " " + string(doc), false},
		{"truncated document", framed[:len(framed)-3], false},
		{"tampered document", strings.Replace(framed, "1}", "2}", 1), false},
		{"empty", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := framer.Unframe([]byte(c.line))
			if ok != c.ok || (ok && !bytes.Equal(got, doc)) {
				t.Errorf("Unframe(%q) = %q, %v; want ok=%v", c.line, got, ok, c.ok)
			}
		})
	}
}

func TestVerify(t *testing.T) {
	m := hmac.New(sha256.New, key)
	m.Write(doc)
	mac := m.Sum(nil)
	if !framer.Verify(doc, mac) {
		t.Error("Verify rejects the document's MAC")
	}
	if framer.Verify([]byte(`{"a":2}`), mac) {
		t.Error("Verify accepts the MAC of another document")
	}
	if framer.Verify(doc, mac[:16]) {
		t.Error("Verify accepts a truncated MAC")
	}
}

func TestNewKey(t *testing.T) {
	a, err := hmacframe.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	b, err := hmacframe.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != hmacframe.KeySize || bytes.Equal(a, b) {
		t.Errorf("NewKey = %x, %x; want two different %d-byte keys", a, b, hmacframe.KeySize)
	}
}

// readAll returns every document Reader finds on input, its ignored bytes
// and the error that ended it.
func readAll(input string, maxLine int) (docs []string, ignored int, err error) {
	r := hmacframe.NewReader(strings.NewReader(input), framer, maxLine)
	for {
		d, err := r.Next()
		if err != nil {
			return docs, r.Ignored(), err
		}
		docs = append(docs, string(d))
	}
}

func TestReaderKeepsFramesAndCountsTheRest(t *testing.T) {
	junk := "plain line\n" + `{"ok":"forged"}` + "\n"
	input := junk + string(framer.Frame(doc)) + "partial " + string(framer.Frame([]byte(`{"b":2}`))) + "trailing"
	docs, ignored, err := readAll(input, 1<<20)
	if !errors.Is(err, io.EOF) {
		t.Errorf("err = %v, want EOF", err)
	}
	if strings.Join(docs, "|") != `{"a":1}|{"b":2}` {
		t.Errorf("docs = %q", docs)
	}
	if want := len(junk) + len("trailing"); ignored != want {
		t.Errorf("ignored = %d, want %d", ignored, want)
	}
}

// TestReaderDropsOversizeLines: a line over the limit is skipped (even one
// far longer than the reader's buffer, or one that never ends) and the
// frames after it still count.
func TestReaderDropsOversizeLines(t *testing.T) {
	frame := string(framer.Frame(doc))
	long := strings.Repeat("x", 300<<10) + "\n"
	oversized := string(framer.Frame([]byte(`"` + strings.Repeat("z", 100<<10) + `"`)))
	for _, c := range []struct {
		name     string
		input    string
		maxLine  int
		docs     int
		ignored  int
		endsWith error
	}{
		{"a frame exactly at the limit", frame, len(frame), 1, 0, io.EOF},
		{"a frame one byte over", frame, len(frame) - 1, 0, len(frame), io.EOF},
		{"a long junk line, then a frame", long + frame, 1 << 10, 1, len(long), io.EOF},
		{"a line that never ends", frame + strings.Repeat("y", 200<<10), 1 << 10, 1, 200 << 10, io.EOF},
		{"an oversized frame", oversized + frame, 1 << 10, 1, len(oversized), io.EOF},
	} {
		t.Run(c.name, func(t *testing.T) {
			docs, ignored, err := readAll(c.input, c.maxLine)
			if len(docs) != c.docs {
				t.Errorf("read %d documents, want %d", len(docs), c.docs)
			}
			for _, d := range docs {
				if d != string(doc) {
					t.Errorf("document %q, want %s", d, doc)
				}
			}
			if ignored != c.ignored {
				t.Errorf("ignored = %d, want %d", ignored, c.ignored)
			}
			if !errors.Is(err, c.endsWith) {
				t.Errorf("err = %v, want %v", err, c.endsWith)
			}
		})
	}
}

// A document may mention the tag, followed by text that looks like a MAC
// or not (a workflow's output quoting a frame): the frame still verifies.
func TestUnframeDocumentMentioningTheTag(t *testing.T) {
	for _, d := range []string{
		`{"output":"stratos-result is the tag"}`,
		`{"output":"stratos-result ` + strings.Repeat("ab", 32) + ` {}"}`,
	} {
		got, ok := framer.Unframe(framer.Frame([]byte(d)))
		if !ok || string(got) != d {
			t.Errorf("Unframe(Frame(%s)) = %q, %v", d, got, ok)
		}
	}
}

// Past maxCandidates forged tags, a line is no longer tried (each try
// hashes the rest of the line).
func TestUnframeTriesABoundedNumberOfTags(t *testing.T) {
	forged := strings.Repeat("stratos-result "+strings.Repeat("0", 64)+" ", 8)
	if _, ok := framer.Unframe([]byte(forged + string(framer.Frame(doc)))); ok {
		t.Error("a frame after 8 forged tags was still tried")
	}
	if got, ok := framer.Unframe([]byte(forged[:len(forged)/8*7] + string(framer.Frame(doc)))); !ok || !bytes.Equal(got, doc) {
		t.Errorf("a frame after 7 forged tags: %q, %v", got, ok)
	}
}
