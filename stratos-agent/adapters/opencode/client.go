package opencode

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/stratoscli/stratos/stratos-agent/adapter/process"
)

// client calls one `opencode serve` over loopback: every request carries
// the server's password and the session's directory (OpenCode keys its
// instances by directory).
type client struct {
	base     string // http://127.0.0.1:<port>
	auth     string // the Authorization header value
	dir      string
	hc       *http.Client
	maxReply int64 // bytes of one answer read at most
}

// maxReplyBytes bounds one answer of the server. The largest are a
// session's message lists, a few MB for long sessions; a server that
// sends more is broken, and reading on would only grow the host's memory.
const maxReplyBytes = 64 << 20

func newClient(base, password, dir string) *client {
	return &client{base: base, dir: dir, hc: &http.Client{}, maxReply: maxReplyBytes,
		auth: "Basic " + base64.StdEncoding.EncodeToString([]byte("opencode:"+password))}
}

// httpError is a non-2xx answer.
type httpError struct {
	Method, Path string
	Status       int
	Body         string
}

func (e *httpError) Error() string {
	return fmt.Sprintf("%s %s: HTTP %d: %s", e.Method, e.Path, e.Status, process.Truncate(strings.TrimSpace(e.Body), 500))
}

// request builds a request for path (with the directory added to its
// query) and JSON body (nil: none).
func (c *client) request(ctx context.Context, method, path string, body any) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path+sep+"directory="+url.QueryEscape(c.dir), rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", c.auth)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// call sends one request and decodes a JSON answer into out (nil: the
// answer is discarded).
func (c *client) call(ctx context.Context, method, path string, body, out any) error {
	req, err := c.request(ctx, method, path, body)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, c.maxReply+1))
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if int64(len(data)) > c.maxReply {
		return fmt.Errorf("%s %s: the answer is larger than %d bytes", method, path, c.maxReply)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &httpError{Method: method, Path: path, Status: resp.StatusCode, Body: string(data)}
	}
	if out == nil || len(data) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s %s: decode the answer: %w", method, path, err)
	}
	return nil
}
