package mcpauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"strings"
	"testing"
	"time"
)

func pemOf(t *testing.T, key any) string {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
}

// A client assertion verifies with the client's public key (ES256 as JWS
// encodes it, RS256) and says who it is from, for and until when.
func TestClientAssertionVerifies(t *testing.T) {
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	rs, _ := rsa.GenerateKey(rand.Reader, 2048)
	now := time.Unix(1_800_000_000, 0)
	for _, tc := range []struct {
		alg    string
		key    any
		verify func(digest, sig []byte) bool
	}{
		{"ES256", ec, func(d, sig []byte) bool {
			return len(sig) == 64 && ecdsa.Verify(&ec.PublicKey, d, new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:]))
		}},
		{"RS256", rs, func(d, sig []byte) bool { return rsa.VerifyPKCS1v15(&rs.PublicKey, crypto.SHA256, d, sig) == nil }},
	} {
		key, err := parseSigningKey(pemOf(t, tc.key))
		if err != nil {
			t.Fatal(err)
		}
		jwt, err := clientAssertion(key, "svc", "https://auth.example.test", now)
		if err != nil {
			t.Fatal(err)
		}
		parts := strings.Split(jwt, ".")
		if len(parts) != 3 {
			t.Fatalf("%s: %q is not a JWS", tc.alg, jwt)
		}
		sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
		digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
		if !tc.verify(digest[:], sig) {
			t.Errorf("%s: the signature does not verify", tc.alg)
		}
		var header struct{ Alg string }
		var claims struct {
			Iss, Sub, Aud, Jti string
			Iat, Exp           int64
		}
		h, _ := base64.RawURLEncoding.DecodeString(parts[0])
		c, _ := base64.RawURLEncoding.DecodeString(parts[1])
		if json.Unmarshal(h, &header) != nil || json.Unmarshal(c, &claims) != nil {
			t.Fatalf("%s: undecodable header or claims", tc.alg)
		}
		if header.Alg != tc.alg || claims.Iss != "svc" || claims.Sub != "svc" || claims.Aud != "https://auth.example.test" ||
			claims.Jti == "" || claims.Iat != now.Unix() || claims.Exp != now.Add(assertionLifetime).Unix() {
			t.Errorf("%s: header %+v claims %+v", tc.alg, header, claims)
		}
	}
}

func TestParseSigningKeyRefusals(t *testing.T) {
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	for _, tc := range []struct{ pem, want string }{
		{"not a key", "not PEM"},
		{pemOf(t, p384), "only P-256"},
		{"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", "the private key:"},
	} {
		if _, err := parseSigningKey(tc.pem); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseSigningKey: err = %v, want %q", err, tc.want)
		}
	}
}
