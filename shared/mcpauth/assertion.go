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
	"errors"
	"fmt"
	"time"
)

// assertionType is the client_assertion_type of a JWT client assertion.
const assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

// assertionLifetime is how long a client assertion is good for: it is
// sent at once, so a short life limits what a copy of it is worth.
const assertionLifetime = 2 * time.Minute

// parseSigningKey reads the PEM private key a private_key_jwt client signs
// its assertions with: PKCS #8, SEC 1 (EC) or PKCS #1 (RSA); an EC key must
// be P-256 (ES256), an RSA key signs with RS256.
func parseSigningKey(pemText string) (crypto.Signer, error) {
	block, _ := pem.Decode([]byte(pemText))
	if block == nil {
		return nil, errors.New("the private key is not PEM (-----BEGIN PRIVATE KEY-----)")
	}
	var key any
	var err error
	switch block.Type {
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	default:
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	}
	if err != nil {
		return nil, fmt.Errorf("the private key: %w", err)
	}
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		if k.Curve != elliptic.P256() {
			return nil, fmt.Errorf("the private key is EC on %s: only P-256 (ES256) is supported", k.Curve.Params().Name)
		}
		return k, nil
	case *rsa.PrivateKey:
		return k, nil
	}
	return nil, fmt.Errorf("the private key is a %T: only EC P-256 and RSA keys sign client assertions", key)
}

// clientAssertion is the signed JWT (RFC 7523) a client authenticates its
// token request with: issued by the client about itself, for the
// authorization server (audience: its issuer), short-lived and unique.
func clientAssertion(key crypto.Signer, clientID, audience string, now time.Time) (string, error) {
	alg := "RS256"
	if _, ok := key.(*ecdsa.PrivateKey); ok {
		alg = "ES256"
	}
	header, err := json.Marshal(map[string]string{"alg": alg, "typ": "JWT"})
	if err != nil {
		return "", err
	}
	claims, err := json.Marshal(struct {
		Iss string `json:"iss"`
		Sub string `json:"sub"`
		Aud string `json:"aud"`
		Jti string `json:"jti"`
		Iat int64  `json:"iat"`
		Exp int64  `json:"exp"`
	}{clientID, clientID, audience, rand.Text(), now.Unix(), now.Add(assertionLifetime).Unix()})
	if err != nil {
		return "", err
	}
	enc := base64.RawURLEncoding
	signed := enc.EncodeToString(header) + "." + enc.EncodeToString(claims)
	sum := sha256.Sum256([]byte(signed))
	sig, err := sign(key, sum[:])
	if err != nil {
		return "", fmt.Errorf("sign the client assertion: %w", err)
	}
	return signed + "." + enc.EncodeToString(sig), nil
}

// sign signs a SHA-256 digest the way JWS wants: PKCS #1 v1.5 for RSA, the
// fixed-width r||s pair (not ASN.1) for ECDSA.
func sign(key crypto.Signer, digest []byte) ([]byte, error) {
	k, ok := key.(*ecdsa.PrivateKey)
	if !ok {
		return key.Sign(rand.Reader, digest, crypto.SHA256)
	}
	r, s, err := ecdsa.Sign(rand.Reader, k, digest)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 64)
	r.FillBytes(out[:32])
	s.FillBytes(out[32:])
	return out, nil
}
