package jsonappend

import (
	"bytes"
	"encoding/json"
	"testing"
)

// awkward are strings every escape of the encoder applies to.
var awkward = []string{
	"", "plain", `say "hi" \ back`, "tab\there\nnewline\rcr\bbs\fff", "\x00\x01\x1f\x7f",
	"<b>&amp;</b>", "caf\u00e9 \u65e5\u672c \U0001F680", "sep\u2028par\u2029end", "bad \xff\xfe utf8 \xe2\x82",
}

// encoded is s as encoding/json encodes it with HTML escaping off.
func encoded(t *testing.T, s string) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

func TestStringIsTheEncodersOutput(t *testing.T) {
	for _, s := range awkward {
		if got, want := string(String([]byte("x"), s)), "x"+encoded(t, s); got != want {
			t.Errorf("String(%q) = %s, encoding/json: %s", s, got, want)
		}
	}
	for c := range 0x80 {
		s := string(rune(c))
		if got, want := string(String(nil, s)), encoded(t, s); got != want {
			t.Errorf("String(%q) = %s, encoding/json: %s", s, got, want)
		}
	}
}

func FuzzStringIsTheEncodersOutput(f *testing.F) {
	for _, s := range awkward {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(String(nil, s)), encoded(t, s); got != want {
			t.Errorf("String(%q) = %s, encoding/json: %s", s, got, want)
		}
	})
}
