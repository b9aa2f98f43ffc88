// Package httpprobe is the testscripts' HTTP client: one request, its
// status and body on stdout, so that a script can check what a local
// server answers to a request a browser would not let it make by hand (a
// foreign Host header, say). It is a program of the test binary, so a
// script can also run it inside a network namespace with the server.
package httpprobe

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// bound is how long a request, or waiting for a URL file, may take.
const bound = 30 * time.Second

// maxBody is how much of a body is printed: a stream's first events, never
// a stream without end.
const maxBody = 64 << 10

type headers []string

func (h *headers) String() string     { return strings.Join(*h, ", ") }
func (h *headers) Set(v string) error { *h = append(*h, v); return nil }

// Main is `httpprobe [-H 'Name: value']... [-urlfile FILE] [-path P] [-addr HOST:PORT] [-auth] [URL]`:
// GET URL (or the first line of FILE, once it holds one, plus P, sent to
// ADDR instead of the URL's host when given) and print "status N", the
// response's Set-Cookie names and the body.
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("httpprobe", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var hdr headers
	fs.Var(&hdr, "H", "a request header, 'Name: value' (Host sets the Host header)")
	urlFile := fs.String("urlfile", "", "read the URL from the first line of this file, waiting for it")
	path := fs.String("path", "", "a path (and query) to resolve against the URL")
	addr := fs.String("addr", "", "connect to this host:port instead of the URL's")
	auth := fs.Bool("auth", false, "send the URL's ?token= as \"Authorization: Bearer <token>\"")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	target := fs.Arg(0)
	if *urlFile != "" {
		var err error
		if target, err = waitURL(*urlFile); err != nil {
			fmt.Fprintln(stderr, "httpprobe:", err)
			return 1
		}
	}
	if *auth {
		u, err := url.Parse(target)
		if err != nil || !u.Query().Has("token") {
			fmt.Fprintf(stderr, "httpprobe: -auth: %q carries no ?token=\n", target)
			return 1
		}
		hdr = append(hdr, "Authorization: Bearer "+u.Query().Get("token"))
	}
	status, cookies, body, err := get(target, *path, *addr, hdr)
	if err != nil {
		fmt.Fprintln(stderr, "httpprobe:", err)
		return 1
	}
	fmt.Fprintf(stdout, "status %d\n", status)
	for _, c := range cookies {
		fmt.Fprintf(stdout, "set-cookie %s\n", c)
	}
	_, _ = stdout.Write(body)
	return 0
}

func waitURL(file string) (string, error) {
	deadline := time.Now().Add(bound)
	for time.Now().Before(deadline) {
		data, _ := os.ReadFile(file)
		if line, _, ok := strings.Cut(string(data), "\n"); ok && strings.HasPrefix(line, "http://") {
			return line, nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return "", fmt.Errorf("no URL in %s after %s", file, bound)
}

func get(target, path, addr string, hdr headers) (int, []string, []byte, error) {
	u, err := url.Parse(target)
	if err != nil {
		return 0, nil, nil, err
	}
	if path != "" {
		ref, err := url.Parse(path)
		if err != nil {
			return 0, nil, nil, err
		}
		u = u.ResolveReference(ref)
	}
	if addr != "" {
		u.Host = addr
	}
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return 0, nil, nil, err
	}
	for _, h := range hdr {
		name, value, ok := strings.Cut(h, ":")
		if !ok {
			return 0, nil, nil, fmt.Errorf("header %q is not 'Name: value'", h)
		}
		if value = strings.TrimSpace(value); strings.EqualFold(name, "Host") {
			req.Host = value
		} else {
			req.Header.Set(name, value)
		}
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	var cookies []string
	for _, c := range resp.Cookies() {
		cookies = append(cookies, fmt.Sprintf("%s httponly=%v samesite=%v", c.Name, c.HttpOnly, c.SameSite == http.SameSiteStrictMode))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil && ctx.Err() == nil && len(body) == 0 {
		return 0, nil, nil, err
	}
	return resp.StatusCode, cookies, body, nil
}
