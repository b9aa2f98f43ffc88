package connect

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"google.golang.org/protobuf/proto"

	"github.com/stratoscli/stratos/shared/boundedread"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/temporalapi"
)

// EnvCodecKeyFile names a file holding the key that encrypts every payload
// a run puts in Temporal (inputs, results, journal entries, console
// output): 32 bytes, as 64 hex digits. The submitter and every worker need
// the same file; the server and anyone reading the history see only
// ciphertext.
const EnvCodecKeyFile = "STRATOS_TEMPORAL_CODEC_KEY_FILE"

// Metadata of an encrypted payload.
const (
	encodingEncrypted = "binary/stratos-aes256gcm"
	metadataKeyID     = "stratos-key-id"
)

// DataConverter is Temporal's default converter, with payloads encrypted
// when the environment names a key file.
func DataConverter(getenv func(string) string) (converter.DataConverter, error) {
	path := getenv(EnvCodecKeyFile)
	if path == "" {
		return converter.GetDefaultDataConverter(), nil
	}
	data, err := boundedread.RegularFile(path, 1<<10)
	if err != nil {
		return nil, clierr.Usage(temporalapi.CodeConfig, "%s (%s): %v", EnvCodecKeyFile, path, err)
	}
	key, err := hex.DecodeString(strings.TrimSpace(string(data)))
	if err != nil || len(key) != 32 {
		return nil, clierr.Usage(temporalapi.CodeConfig, "%s (%s): the key must be 32 bytes written as 64 hex digits (openssl rand -hex 32)", EnvCodecKeyFile, path)
	}
	c, err := newCodec(key)
	if err != nil {
		return nil, err
	}
	return converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), c), nil
}

// codec encrypts payloads with AES-256-GCM. The key ID (a hash of the key)
// travels with each payload, so a worker holding another key says so
// instead of failing to authenticate.
type codec struct {
	aead cipher.AEAD
	id   string
}

var _ converter.PayloadCodec = (*codec)(nil)

func newCodec(key []byte) (*codec, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(key)
	return &codec{aead: aead, id: hex.EncodeToString(sum[:8])}, nil
}

func (c *codec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		plain, err := proto.Marshal(p)
		if err != nil {
			return nil, err
		}
		nonce := make([]byte, c.aead.NonceSize())
		if _, err := rand.Read(nonce); err != nil {
			return nil, err
		}
		out[i] = &commonpb.Payload{
			Metadata: map[string][]byte{converter.MetadataEncoding: []byte(encodingEncrypted), metadataKeyID: []byte(c.id)},
			Data:     c.aead.Seal(nonce, nonce, plain, nil),
		}
	}
	return out, nil
}

func (c *codec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if string(p.GetMetadata()[converter.MetadataEncoding]) != encodingEncrypted {
			out[i] = p
			continue
		}
		if id := string(p.GetMetadata()[metadataKeyID]); id != c.id {
			return nil, fmt.Errorf("a payload is encrypted with key %s, not this process's key %s (%s)", id, c.id, EnvCodecKeyFile)
		}
		n := c.aead.NonceSize()
		if len(p.Data) < n {
			return nil, fmt.Errorf("an encrypted payload is too short")
		}
		plain, err := c.aead.Open(nil, p.Data[:n], p.Data[n:], nil)
		if err != nil {
			return nil, fmt.Errorf("decrypt a payload: %w", err)
		}
		var dec commonpb.Payload
		if err := proto.Unmarshal(plain, &dec); err != nil {
			return nil, err
		}
		out[i] = &dec
	}
	return out, nil
}
