package ollama

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// requestTimeout bounds one inventory request: a server that accepts the
// connection and never answers must not hang an agent or a build.
const requestTimeout = 30 * time.Second

// Client reads a server's inventory. Its zero HTTP client is a fresh
// one with requestTimeout.
type Client struct {
	Host Host
	HTTP *http.Client
}

func (c Client) http() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return &http.Client{Timeout: requestTimeout}
}

// Version is the server's version (/api/version).
func (c Client) Version(ctx context.Context) (string, error) {
	var v struct {
		Version string `json:"version"`
	}
	if err := c.do(ctx, http.MethodGet, "/api/version", nil, &v); err != nil {
		return "", err
	}
	return v.Version, nil
}

// tagsEntry is one /api/tags model. Cloud entries carry remote_host.
type tagsEntry struct {
	Name       string `json:"name"`
	Model      string `json:"model"`
	Digest     string `json:"digest"`
	RemoteHost string `json:"remote_host"`
	Details    struct {
		Family       string `json:"family"`
		Quantization string `json:"quantization_level"`
	} `json:"details"`
}

func (c Client) tags(ctx context.Context) ([]tagsEntry, error) {
	var v struct {
		Models *[]tagsEntry `json:"models"`
	}
	if err := c.do(ctx, http.MethodGet, "/api/tags", nil, &v); err != nil {
		return nil, err
	}
	if v.Models == nil {
		return nil, c.inventoryError("/api/tags answered without a models list", nil)
	}
	return *v.Models, nil
}

// showReply is the part of /api/show Stratos reads.
type showReply struct {
	Capabilities []string       `json:"capabilities"`
	Parameters   string         `json:"parameters"`
	ModelInfo    map[string]any `json:"model_info"`
	RemoteHost   string         `json:"remote_host"`
}

// errNotFound marks a 404 from /api/show: the model is not installed.
var errNotFound = errors.New("not found")

func (c Client) show(ctx context.Context, name string) (showReply, error) {
	var v showReply
	err := c.do(ctx, http.MethodPost, "/api/show", map[string]string{"model": name}, &v)
	return v, err
}

// do sends one request and decodes a 2xx JSON answer into out.
func (c Client) do(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, _ := json.Marshal(in)
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.Host.URL(path), body)
	if err != nil {
		return c.inventoryError(fmt.Sprintf("%s %s: %v", method, path, err), err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http().Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &Error{Code: CodeUnreachable, Host: c.Host.String(), err: err,
			msg: fmt.Sprintf("not reachable (%s %s: %v); is `ollama serve` running there?", method, path, unwrapURLError(err))}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return c.inventoryError(fmt.Sprintf("%s %s: reading the answer: %v", method, path, err), err)
	}
	if resp.StatusCode == http.StatusNotFound && path == "/api/show" {
		return errNotFound
	}
	if resp.StatusCode/100 != 2 {
		return c.inventoryError(fmt.Sprintf("%s %s answered HTTP %d: %s", method, path, resp.StatusCode, serverMessage(data)), nil)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return c.inventoryError(fmt.Sprintf("%s %s: the answer is not Ollama's JSON: %v", method, path, err), err)
	}
	return nil
}

func (c Client) inventoryError(msg string, err error) error {
	return &Error{Code: CodeInventory, Host: c.Host.String(), msg: msg, err: err}
}

// serverMessage is Ollama's {"error": "..."} text, else the raw answer
// (shortened).
func serverMessage(data []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(data, &e) == nil && e.Error != "" {
		return e.Error
	}
	if len(data) > 200 {
		data = append(data[:200:200], "…"...)
	}
	return string(data)
}

// unwrapURLError drops net/http's "Get \"url\": " prefix, which repeats
// what the message already says.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
