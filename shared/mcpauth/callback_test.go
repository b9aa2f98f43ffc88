package mcpauth_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/fakeoauth"
	"github.com/stratoscli/stratos/shared/mcpauth"
	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// forgery is a request someone other than the authorization server sends
// to the redirect listener while the user is logging in: another local
// user, or a web page in the user's browser.
type forgery struct {
	name   string
	method string
	host   string // "" = the listener's own
	query  url.Values
	header map[string]string
	want   int
}

// Forged redirects are refused and do not end the login: the redirect of
// the authorization server, arriving after them as a browser sends it back
// from another site, still completes it.
func TestTheRedirectListenerTakesOnlyItsOwnRedirect(t *testing.T) {
	srv, _ := serve(t, fakeoauth.Options{})
	store := mcpauth.Open(t.TempDir())
	server := mcpdecl.Server{Name: "tracker", Transport: mcpdecl.TransportHTTP, URL: srv, OAuth: &mcpdecl.OAuth{}}
	visit := func(authURL string) error {
		u, err := url.Parse(authURL)
		if err != nil {
			return err
		}
		redirect, state := u.Query().Get("redirect_uri"), u.Query().Get("state")
		good := url.Values{"code": {"forged-code"}, "state": {state}}
		for _, f := range []forgery{
			{name: "a DNS-rebinding page (foreign Host)", host: "evil.example", query: good, want: http.StatusForbidden},
			{name: "a page's fetch (foreign Origin)", query: good, header: map[string]string{"Origin": "https://evil.example"}, want: http.StatusForbidden},
			{name: "a page's image (cross-site subresource)", query: good,
				header: map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"}, want: http.StatusForbidden},
			{name: "a form post", method: http.MethodPost, query: good, want: http.StatusMethodNotAllowed},
			{name: "a code without the state", query: url.Values{"code": {"forged-code"}}, want: http.StatusBadRequest},
			{name: "a code with another state", query: url.Values{"code": {"forged-code"}, "state": {"guessed"}}, want: http.StatusBadRequest},
			{name: "a refusal with another state", query: url.Values{"error": {"access_denied"}, "state": {"guessed"}}, want: http.StatusBadRequest},
		} {
			if got, err := forge(redirect, f); err != nil || got != f.want {
				return fmt.Errorf("%s: HTTP %d, %v; want %d", f.name, got, err, f.want)
			}
		}
		return followAsBrowser(authURL)
	}
	r, err := mcpauth.Login(context.Background(), store, server, mcpauth.LoginOptions{Visit: visit})
	if err != nil {
		t.Fatalf("login after forged redirects: %v", err)
	}
	if !strings.HasPrefix(r.AccessToken, fakeoauth.PrefixAccess) {
		t.Errorf("access token %q not from the fake", r.AccessToken)
	}
}

func forge(redirect string, f forgery) (int, error) {
	method := f.method
	if method == "" {
		method = http.MethodGet
	}
	req, err := http.NewRequest(method, redirect+"?"+f.query.Encode(), nil)
	if err != nil {
		return 0, err
	}
	if f.host != "" {
		req.Host = f.host + ":" + req.URL.Port()
	}
	for k, v := range f.header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// followAsBrowser visits authURL with the headers a browser sends when
// the user approves on the authorization server's site and is redirected
// back: a top-level navigation from another site, with no Origin.
func followAsBrowser(authURL string) error {
	req, err := http.NewRequest(http.MethodGet, authURL, nil)
	if err != nil {
		return err
	}
	for k, v := range map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document", "Sec-Fetch-User": "?1"} {
		req.Header.Set(k, v) // kept on the redirect
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the redirect answered %s", resp.Status)
	}
	return nil
}

// The login works in a real browser: headless Chromium opens the
// authorization URL, the fake approves at once and redirects it to the
// listener, which shows the page that says so.
func TestLoginInARealBrowser(t *testing.T) {
	chrome := findChromium()
	if chrome == "" {
		t.Skip("no Chromium found; install it: apt-get install -y chromium (or set STRATOS_CHROMIUM to a Chromium or Chrome binary)")
	}
	srv, _ := serve(t, fakeoauth.Options{})
	store := mcpauth.Open(t.TempDir())
	server := mcpdecl.Server{Name: "tracker", Transport: mcpdecl.TransportHTTP, URL: srv, OAuth: &mcpdecl.OAuth{}}
	profile := t.TempDir()
	var page string
	visit := func(authURL string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, chrome, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
			"--user-data-dir="+profile, "--dump-dom", authURL).Output()
		page = string(out)
		return err
	}
	if _, err := mcpauth.Login(context.Background(), store, server, mcpauth.LoginOptions{Visit: visit}); err != nil {
		t.Fatalf("login: %v\npage: %s", err, page)
	}
	if !strings.Contains(page, "Stratos: logged in.") {
		t.Errorf("the browser shows %q, want the listener's page", page)
	}
}

// findChromium is the browser to drive, "" when there is none.
func findChromium() string {
	if p := os.Getenv("STRATOS_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}
