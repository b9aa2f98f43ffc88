package connect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.temporal.io/sdk/converter"
)

func keyFile(t *testing.T, hexKey string) func(string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(p, []byte(hexKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return func(k string) string {
		if k == EnvCodecKeyFile {
			return p
		}
		return ""
	}
}

const key1 = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

// A value survives the round trip; the payload holds no plaintext; a
// process with another key says which key the payload needs.
func TestCodecEncryptsPayloads(t *testing.T) {
	dc, err := DataConverter(keyFile(t, key1))
	if err != nil {
		t.Fatal(err)
	}
	p, err := dc.ToPayload("the secret plan")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(p.Data), "secret") || string(p.Metadata[converter.MetadataEncoding]) != encodingEncrypted {
		t.Fatalf("payload %q (metadata %v) is not encrypted", p.Data, p.Metadata)
	}
	var got string
	if err := dc.FromPayload(p, &got); err != nil || got != "the secret plan" {
		t.Fatalf("round trip: %q, %v", got, err)
	}
	other, err := DataConverter(keyFile(t, strings.Repeat("ff", 32)))
	if err != nil {
		t.Fatal(err)
	}
	if err := other.FromPayload(p, &got); err == nil || !strings.Contains(err.Error(), "not this process's key") {
		t.Errorf("another key: %v, want the key mismatch named", err)
	}
}

func TestCodecKeyMustBe32HexBytes(t *testing.T) {
	for _, k := range []string{"abcd", strings.Repeat("zz", 32)} {
		if _, err := DataConverter(keyFile(t, k)); err == nil || !strings.Contains(err.Error(), "64 hex digits") {
			t.Errorf("key %q: %v, want the form named", k, err)
		}
	}
}
