// Package connect makes the Temporal client of stratos-temporal from the
// environment variables the temporal CLI reads, so one environment serves
// both: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS
// and the TEMPORAL_TLS_* files.
package connect

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"log/slog"
	"strconv"
	"time"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"

	"github.com/stratoscli/stratos/shared/boundedread"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/temporalapi"
)

// DialTimeout bounds the wait for the server's first answer.
const DialTimeout = 15 * time.Second

// maxPEM bounds a TLS file.
const maxPEM = 1 << 20

// DefaultAddress is the temporal CLI's default (its dev server).
const DefaultAddress = "127.0.0.1:7233"

// Dial connects to the Temporal server the environment names. The SDK's
// own log goes to logw at warning level and above (never stdout: a run's
// output is there).
func Dial(ctx context.Context, getenv func(string) string, logw io.Writer) (client.Client, error) {
	opts, err := Options(getenv)
	if err != nil {
		return nil, err
	}
	opts.Logger = tlog.NewStructuredLogger(slog.New(slog.NewTextHandler(logw, &slog.HandlerOptions{Level: slog.LevelWarn})))
	ctx, cancel := context.WithTimeout(ctx, DialTimeout)
	defer cancel()
	c, err := client.DialContext(ctx, opts)
	if err != nil {
		return nil, clierr.New(temporalapi.CodeConnection, "connect to the Temporal server at %s (namespace %s; TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE): %v", opts.HostPort, opts.Namespace, err).Wrap(err)
	}
	return c, nil
}

// Options are the client options the environment gives.
func Options(getenv func(string) string) (client.Options, error) {
	o := client.Options{HostPort: getenv("TEMPORAL_ADDRESS"), Namespace: getenv("TEMPORAL_NAMESPACE")}
	if o.HostPort == "" {
		o.HostPort = DefaultAddress
	}
	if o.Namespace == "" {
		o.Namespace = "default"
	}
	cfg, err := tlsConfig(getenv)
	if err != nil {
		return o, err
	}
	if key := getenv("TEMPORAL_API_KEY"); key != "" {
		o.Credentials = client.NewAPIKeyStaticCredentials(key)
		if cfg == nil {
			cfg = &tls.Config{MinVersion: tls.VersionTLS12} // an API key is only sent over TLS
		}
	}
	o.ConnectionOptions.TLS = cfg
	if o.DataConverter, err = DataConverter(getenv); err != nil {
		return o, err
	}
	return o, nil
}

// tlsConfig is the TLS the TEMPORAL_TLS* variables ask for (nil: none).
func tlsConfig(getenv func(string) string) (*tls.Config, error) {
	cert, key, ca := getenv("TEMPORAL_TLS_CLIENT_CERT_PATH"), getenv("TEMPORAL_TLS_CLIENT_KEY_PATH"), getenv("TEMPORAL_TLS_SERVER_CA_CERT_PATH")
	on, _ := strconv.ParseBool(getenv("TEMPORAL_TLS"))
	if !on && cert == "" && ca == "" {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: getenv("TEMPORAL_TLS_SERVER_NAME")}
	cfg.InsecureSkipVerify, _ = strconv.ParseBool(getenv("TEMPORAL_TLS_DISABLE_HOST_VERIFICATION"))
	if cert != "" || key != "" {
		certPEM, err := readPEM("TEMPORAL_TLS_CLIENT_CERT_PATH", cert)
		if err != nil {
			return nil, err
		}
		keyPEM, err := readPEM("TEMPORAL_TLS_CLIENT_KEY_PATH", key)
		if err != nil {
			return nil, err
		}
		pair, err := tls.X509KeyPair(certPEM, keyPEM)
		if err != nil {
			return nil, clierr.Usage(temporalapi.CodeConfig, "TEMPORAL_TLS_CLIENT_CERT_PATH/KEY_PATH (%s, %s): %v", cert, key, err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	if ca != "" {
		caPEM, err := readPEM("TEMPORAL_TLS_SERVER_CA_CERT_PATH", ca)
		if err != nil {
			return nil, err
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(caPEM) {
			return nil, clierr.Usage(temporalapi.CodeConfig, "TEMPORAL_TLS_SERVER_CA_CERT_PATH (%s): no PEM certificate in it", ca)
		}
		cfg.RootCAs = pool
	}
	return cfg, nil
}

func readPEM(variable, path string) ([]byte, error) {
	if path == "" {
		return nil, clierr.Usage(temporalapi.CodeConfig, "%s is not set (a client certificate needs both its certificate and its key)", variable)
	}
	b, err := boundedread.RegularFile(path, maxPEM)
	if err != nil {
		return nil, clierr.Usage(temporalapi.CodeConfig, "%s (%s): %v", variable, path, err)
	}
	return b, nil
}
