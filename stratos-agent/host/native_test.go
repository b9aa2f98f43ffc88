package host

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// fakeLister is a harness's own model list: per provider, the models and
// whether the list is complete; a provider it has no list for answers
// ErrNoModelList, "broken" fails, "hung" waits for its deadline.
type fakeLister struct {
	mu    sync.Mutex
	asked []string
	lists map[string]adapter.NativeModels
}

func (f *fakeLister) list(ctx context.Context, provider string) (adapter.NativeModels, error) {
	f.mu.Lock()
	f.asked = append(f.asked, provider)
	f.mu.Unlock()
	switch provider {
	case "broken":
		return adapter.NativeModels{}, errors.New("cannot list")
	case "hung":
		<-ctx.Done()
		return adapter.NativeModels{}, ctx.Err()
	}
	l, ok := f.lists[provider]
	if !ok {
		return adapter.NativeModels{}, adapter.ErrNoModelList
	}
	return l, nil
}

func nativeHost(f *fakeLister) *Host {
	return &Host{log: hclog.NewNullLogger(), nativeBound: 50 * time.Millisecond, harnesses: map[string]adapter.Harness{
		"lister": {Name: "lister", Models: f.list},
		"plain":  {Name: "plain"},
	}}
}

func natives(cands []candidate) []string {
	var out []string
	for _, c := range cands {
		out = append(out, c.Harness+" "+c.Native+" "+c.Source)
	}
	return out
}

func TestConsultNativeDropsWhatACompleteListLacksAndNamesTheSource(t *testing.T) {
	f := &fakeLister{lists: map[string]adapter.NativeModels{
		"p":       {Models: []string{"p/a"}, Complete: true, Source: "lister models p"},
		"partial": {Models: []string{"partial/a"}, Source: "lister partial"},
	}}
	cands := []candidate{
		{Harness: "lister", Provider: "p", Native: "p/a", Source: "packaged catalog"},
		{Harness: "lister", Provider: "p", Native: "p/b", Source: "packaged catalog"},
		{Harness: "lister", Provider: "partial", Native: "partial/b", Source: "packaged catalog"},
		{Harness: "lister", Provider: "none", Native: "none/a", Source: "packaged catalog"},
		{Harness: "lister", Provider: "broken", Native: "broken/a", Source: "packaged catalog"},
		{Harness: "lister", Provider: "hung", Native: "hung/a", Source: "packaged catalog"},
		{Harness: "plain", Provider: "p", Native: "p/b", Source: "packaged catalog"},
	}
	got, err := nativeHost(f).consultNative(context.Background(), "agent", "", cands)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"lister p/a lister models p",        // the list answered
		"lister partial/b packaged catalog", // absent from a partial list: still eligible
		"lister none/a packaged catalog",    // no list for that provider
		"lister broken/a packaged catalog",  // a failed list falls back
		"lister hung/a packaged catalog",    // so does one past its bound
		"plain p/b packaged catalog",        // no list of its own
	}
	if !slices.Equal(natives(got), want) {
		t.Errorf("got  %q\nwant %q", natives(got), want)
	}
	slices.Sort(f.asked)
	if want := []string{"broken", "hung", "none", "p", "partial"}; !slices.Equal(f.asked, want) {
		t.Errorf("asked %v, want each provider once: %v", f.asked, want)
	}
}

// A first candidate whose harness has no list starts without waiting for
// the lists of the candidates after it.
func TestConsultNativeAsksNothingBeyondAHarnessWithoutAList(t *testing.T) {
	f := &fakeLister{}
	h := nativeHost(f)
	h.nativeBound = time.Hour
	cands := []candidate{
		{Harness: "plain", Provider: "p", Native: "p/a"},
		{Harness: "lister", Provider: "hung", Native: "hung/a"},
	}
	got, err := h.consultNative(context.Background(), "agent", "", cands)
	if err != nil || len(got) != 2 || len(f.asked) != 0 {
		t.Fatalf("got %v, %v, asked %v: want both candidates and nothing asked", natives(got), err, f.asked)
	}
}

// The agents of one host share a list: it is asked once, however many
// agents start at once; a failed list is asked again.
func TestConsultNativeAsksEachListOncePerHost(t *testing.T) {
	f := &fakeLister{lists: map[string]adapter.NativeModels{"p": {Models: []string{"p/a"}, Complete: true, Source: "s"}}}
	h := nativeHost(f)
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			got, err := h.consultNative(context.Background(), "agent", "", []candidate{{Harness: "lister", Provider: "p", Native: "p/a"}})
			if err != nil || len(got) != 1 || got[0].Source != "s" {
				t.Errorf("got %v, %v", natives(got), err)
			}
		})
	}
	wg.Wait()
	for range 2 {
		_, _ = h.consultNative(context.Background(), "agent", "", []candidate{{Harness: "lister", Provider: "broken", Native: "broken/a"}})
	}
	slices.Sort(f.asked)
	if want := []string{"broken", "broken", "p"}; !slices.Equal(f.asked, want) {
		t.Errorf("asked %v, want %v", f.asked, want)
	}
}

func TestConsultNativeKeepsEveryCandidateWhenTheListsLackThemAll(t *testing.T) {
	f := &fakeLister{lists: map[string]adapter.NativeModels{"ollama": {Models: []string{"qwen3:8b"}, Complete: true, Source: "ollama tags"}}}
	cands := withNativeNames(explicitCandidates("lister", []string{"llama3", "mistral:7b"}), "ollama")
	got, err := nativeHost(f).consultNative(context.Background(), "agent", "ollama", cands)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"lister llama3:latest ", "lister mistral:7b "}; !slices.Equal(natives(got), want) {
		t.Errorf("got %q, want %q: the adapters refuse them with their own errors", natives(got), want)
	}
	cands = withNativeNames(explicitCandidates("lister", []string{"llama3", "qwen3:8b"}), "ollama")
	got, _ = nativeHost(f).consultNative(context.Background(), "agent", "ollama", cands)
	if want := []string{"lister qwen3:8b ollama tags"}; !slices.Equal(natives(got), want) {
		t.Errorf("got %q, want %q", natives(got), want)
	}
}

func TestConsultNativeEndsWithTheCallersContext(t *testing.T) {
	f := &fakeLister{}
	h := nativeHost(f)
	h.nativeBound = time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for {
			f.mu.Lock()
			n := len(f.asked)
			f.mu.Unlock()
			if n > 0 {
				cancel()
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	_, err := h.consultNative(ctx, "agent", "", []candidate{{Harness: "lister", Provider: "hung", Native: "hung/a"}})
	if err == nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want cancelled", err)
	}
}

// The selection error says which source answered for each refused
// candidate.
func TestSelectorNamesTheSourceOfEveryAttempt(t *testing.T) {
	var log []string
	s := selectorOver(&log, &fakeAdapter{name: "a", initErr: rejection.New(rejection.Authentication, "no key")})
	s.cands[0].Source = "packaged catalog"
	s.cands = append(s.cands, candidate{Harness: "codex", Model: "m", Source: "opencode models p"})
	err := s.Initialize(context.Background())
	var e *agentproto.Error
	if !errors.As(err, &e) {
		t.Fatalf("error = %v", err)
	}
	if got, _ := e.Details["sources"].([]string); !slices.Equal(got, []string{"packaged catalog", "opencode models p"}) {
		t.Errorf("details.sources = %#v", e.Details["sources"])
	}
}
