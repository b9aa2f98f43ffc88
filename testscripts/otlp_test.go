package testscripts

import (
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// withOTLP adds the otlp command: an in-test OTLP/HTTP (protobuf) trace
// receiver on loopback.
//
//	otlp start   start the receiver and point OTEL_EXPORTER_OTLP_ENDPOINT
//	             at it
//	otlp tree    print the spans received so far as trees, one span a line,
//	             children indented under their parent (by start time):
//	             "<name> key=value …", the stratos.* attributes without the
//	             prefix, "error" for an error status; a root whose parent
//	             was not received ends with "parent=<trace-id>-<span-id>";
//	             every root ends with "id=<trace-id>-<span-id>"
//	             ("! otlp tree": nothing was received)
func withOTLP(p testscript.Params) testscript.Params {
	setup := p.Setup
	p.Setup = func(env *testscript.Env) error {
		env.Values[otlpKey{}] = &otlpReceiver{}
		if setup != nil {
			return setup(env)
		}
		return nil
	}
	if p.Cmds == nil {
		p.Cmds = map[string]func(*testscript.TestScript, bool, []string){}
	}
	p.Cmds["otlp"] = cmdOTLP
	return p
}

type otlpKey struct{}

// otlpReceiver keeps every span it is sent.
type otlpReceiver struct {
	mu    sync.Mutex
	spans []*tracepb.Span
}

func (r *otlpReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.URL.Path != "/v1/traces" || req.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "only OTLP/HTTP protobuf traces", http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(req.Body)
	var msg collectortrace.ExportTraceServiceRequest
	if err == nil {
		err = proto.Unmarshal(body, &msg)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	for _, rs := range msg.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			r.spans = append(r.spans, ss.Spans...)
		}
	}
	r.mu.Unlock()
	out, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

func cmdOTLP(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: otlp start|tree")
	}
	switch args[0] {
	case "start":
		r, _ := ts.Value(otlpKey{}).(*otlpReceiver)
		if r == nil {
			ts.Fatalf("otlp: the test's Params were not set up with withOTLP")
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		ts.Check(err)
		srv := &http.Server{Handler: r}
		go func() { _ = srv.Serve(ln) }()
		ts.Defer(func() { _ = srv.Close() })
		ts.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://"+ln.Addr().String())
	case "tree":
		r, _ := ts.Value(otlpKey{}).(*otlpReceiver)
		if r == nil {
			ts.Fatalf("otlp tree: no receiver (otlp start)")
		}
		r.mu.Lock()
		text := spanTree(r.spans)
		r.mu.Unlock()
		switch {
		case neg && text != "":
			ts.Fatalf("otlp: spans were received:\n%s", text)
		case !neg && text == "":
			ts.Fatalf("otlp: no spans were received")
		}
		fmt.Fprint(ts.Stdout(), text)
	default:
		ts.Fatalf("otlp: unknown subcommand %q (start, tree)", args[0])
	}
}

// spanTree renders spans as indented trees, siblings by start time.
func spanTree(spans []*tracepb.Span) string {
	byID := map[string]bool{}
	children := map[string][]*tracepb.Span{}
	for _, s := range spans {
		byID[string(s.SpanId)] = true
	}
	var roots []*tracepb.Span
	for _, s := range spans {
		if byID[string(s.ParentSpanId)] {
			children[string(s.ParentSpanId)] = append(children[string(s.ParentSpanId)], s)
		} else {
			roots = append(roots, s)
		}
	}
	var b strings.Builder
	var walk func(ss []*tracepb.Span, depth int)
	walk = func(ss []*tracepb.Span, depth int) {
		sort.SliceStable(ss, func(i, j int) bool { return ss[i].StartTimeUnixNano < ss[j].StartTimeUnixNano })
		for _, s := range ss {
			b.WriteString(strings.Repeat("  ", depth) + spanLine(s))
			if depth == 0 && len(s.ParentSpanId) > 0 {
				fmt.Fprintf(&b, " parent=%s-%s", hex.EncodeToString(s.TraceId), hex.EncodeToString(s.ParentSpanId))
			}
			if depth == 0 {
				fmt.Fprintf(&b, " id=%s-%s", hex.EncodeToString(s.TraceId), hex.EncodeToString(s.SpanId))
			}
			b.WriteString("\n")
			walk(children[string(s.SpanId)], depth+1)
		}
	}
	walk(roots, 0)
	return b.String()
}

func spanLine(s *tracepb.Span) string {
	parts := []string{s.Name}
	var attrs []string
	for _, kv := range s.Attributes {
		if name, ok := strings.CutPrefix(kv.Key, "stratos."); ok {
			attrs = append(attrs, name+"="+anyValueText(kv.Value))
		}
	}
	sort.Strings(attrs)
	parts = append(parts, attrs...)
	if s.Status != nil && s.Status.Code == tracepb.Status_STATUS_CODE_ERROR {
		parts = append(parts, "error")
	}
	if s.EndTimeUnixNano < s.StartTimeUnixNano {
		parts = append(parts, "ends-before-start")
	}
	return strings.Join(parts, " ")
}

func anyValueText(v interface {
	GetStringValue() string
	GetIntValue() int64
}) string {
	if s := v.GetStringValue(); s != "" {
		return s
	}
	return fmt.Sprint(v.GetIntValue())
}
