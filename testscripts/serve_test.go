package testscripts

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/rogpeppe/go-internal/testscript"
)

// chromiumInstall is what a machine without Chromium needs; scripts/test
// names it too when it reports the skip.
const chromiumInstall = "apt-get install -y chromium (or set STRATOS_CHROMIUM to a Chromium or Chrome binary)"

// TestServe runs testdata/serve: `stratos serve` with its page driven in
// headless Chromium (chromedp) while real runs on the test harness go on.
// Without Chromium the test is skipped, saying how to install it.
//
// Script commands:
//
//	serveurl <file>                   wait until file holds the server's URL (with its read token);
//	                                  set $URL, $BASE (the URL without path and token) and $PORT
//	browser open <url>                start Chromium (once per script) and load url
//	browser size <width> <height>     resize the window
//	browser wait <selector> [regexp]  wait until an element matches (and its text matches regexp)
//	browser click <selector>          click the element
//	browser eval <js>                 evaluate js (awaiting a promise); its JSON value is stdout
//	browser screenshot <file.png>     save a screenshot of the page
//
// Screenshots go to $ARTIFACTS: t.ArtifactDir() of the script's subtest,
// kept under -outputdir with `go test -artifacts`.
func TestServe(t *testing.T) {
	chrome := findChromium()
	if chrome == "" {
		t.Skip("browser tests of stratos serve skipped: no Chromium found; install it: " + chromiumInstall)
	}
	p := params(t, "serve")
	base := p.Setup
	p.Setup = func(env *testscript.Env) error {
		if err := base(env); err != nil {
			return err
		}
		if a, ok := env.T().(interface{ ArtifactDir() string }); ok {
			env.Setenv("ARTIFACTS", a.ArtifactDir())
		}
		b := &browser{chrome: chrome, profile: filepath.Join(env.WorkDir, "chromium-profile")}
		env.Values[browserKey{}] = b
		env.Defer(b.close)
		return nil
	}
	p.Cmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"serveurl": cmdServeURL,
		"browser":  cmdBrowser,
		"lastrun":  cmdRunLastRun,
		"waitfor":  cmdWaitFile,
	}
	testscript.Run(t, p)
}

// findChromium returns the browser binary to drive, "" when there is none.
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

type browserKey struct{}

// browser is one script's headless Chromium, started on first use.
type browser struct {
	chrome, profile string
	ctx             context.Context
	cancel          []context.CancelFunc
}

// start launches Chromium with the flags this closed network needs (no
// QUIC, no background connections) and a fresh profile.
func (b *browser) start() error {
	if b.ctx != nil {
		return nil
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(b.chrome),
		chromedp.UserDataDir(b.profile),
		chromedp.WindowSize(1280, 800),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		// rebind.test stands for a DNS-rebinding attacker's name: it
		// resolves to this machine, and the browser sends it in Host.
		chromedp.Flag("host-resolver-rules", "MAP rebind.test 127.0.0.1"),
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	b.ctx, b.cancel = ctx, []context.CancelFunc{cancel, acancel}
	// The first action starts the browser; it must run on a context without
	// a deadline, since the browser lives as long as that context.
	return chromedp.Do(ctx)
}

func (b *browser) close() {
	for _, c := range b.cancel {
		c()
	}
}

// browserBound keeps a broken page from hanging a script; it is no timed
// assertion (every wait is for a state, however long it takes below this).
const browserBound = 90 * time.Second

func cmdBrowser(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: browser open|size|wait|click|eval|screenshot ...")
	}
	b := ts.Value(browserKey{}).(*browser)
	ts.Check(b.start())
	ctx, cancel := context.WithTimeout(b.ctx, browserBound)
	defer cancel()
	switch verb, rest := args[0], args[1:]; {
	case verb == "open" && len(rest) == 1:
		ts.Check(chromedp.Do(ctx, chromedp.Navigate(rest[0])))
	case verb == "size" && len(rest) == 2:
		w, err1 := strconv.Atoi(rest[0])
		h, err2 := strconv.Atoi(rest[1])
		if err1 != nil || err2 != nil {
			ts.Fatalf("browser size: width and height are numbers")
		}
		ts.Check(chromedp.Do(ctx, chromedp.EmulateViewport(int64(w), int64(h))))
	case verb == "wait" && (len(rest) == 1 || len(rest) == 2):
		browserWait(ts, ctx, b, rest)
	case verb == "click" && len(rest) == 1:
		ts.Check(chromedp.Do(ctx, chromedp.Click(chromedp.CSS(rest[0]))))
	case verb == "eval" && len(rest) == 1:
		data, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](rest[0], awaitPromise))
		ts.Check(err)
		fmt.Fprintf(ts.Stdout(), "%s\n", data)
	case verb == "screenshot" && len(rest) == 1:
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		ts.Check(err)
		path := ts.MkAbs(rest[0])
		ts.Check(os.MkdirAll(filepath.Dir(path), 0o755))
		ts.Check(os.WriteFile(path, png, 0o644))
		ts.Logf("screenshot saved: %s", path)
	default:
		ts.Fatalf("browser: unknown use %q", strings.Join(args, " "))
	}
}

func awaitPromise(p *cdpruntime.EvaluateParams) {
	yes := true
	p.AwaitPromise = &yes
}

// browserWait waits until the page has an element matching selector whose
// text, its white space collapsed, matches the regexp (when given). The page is asked on each animation
// frame; on failure the element's last text is reported.
func browserWait(ts *testscript.TestScript, ctx context.Context, b *browser, args []string) {
	sel, _ := json.Marshal(args[0])
	re := []byte(`null`)
	if len(args) == 2 {
		re, _ = json.Marshal(args[1])
	}
	expr := fmt.Sprintf(`(() => { const re = %s === null ? null : new RegExp(%s);
		return [...document.querySelectorAll(%s)].some((e) => re === null || re.test(e.textContent.replace(/\s+/g, " ").trim())); })()`, re, re, sel)
	// A poll does not survive a navigation (a form submission, a reload):
	// it is asked again on the new page.
	var err error
	for {
		_, err = chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0)))
		if err == nil || ctx.Err() != nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		text, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](fmt.Sprintf(`location.href + ": " + ([...document.querySelectorAll(%s)].map((e) => e.textContent.replace(/\s+/g, " ").trim()).join(" | ") || "no element matches")`, sel)))
		ts.Fatalf("browser wait %s: %v; the page at %s", strings.Join(args, " "), err, text)
	}
}

func cmdServeURL(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: serveurl <file>")
	}
	path := ts.MkAbs(args[0])
	deadline := time.Now().Add(pollBound)
	for time.Now().Before(deadline) {
		data, _ := os.ReadFile(path)
		if line, _, ok := strings.Cut(string(data), "\n"); ok && strings.HasPrefix(line, "http://") {
			ts.Setenv("URL", line)
			if u, err := url.Parse(line); err == nil {
				ts.Setenv("PORT", u.Port())
				ts.Setenv("BASE", u.Scheme+"://"+u.Host+"/")
			}
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	ts.Fatalf("no URL in %s after %s", path, pollBound)
}
