package opencode

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
)

// FuzzNextEvent reads an arbitrary stream as the server's event stream:
// it ends, and every event it yields has a type and is not a sync frame,
// one at most per data line.
func FuzzNextEvent(f *testing.F) {
	f.Add(`data: {"payload":{"type":"server.connected","properties":{}}}` + "\n\n")
	f.Add("data:{\"directory\":\"/w\",\"payload\":{\"type\":\"message.part.delta\",\"properties\":{\"delta\":\"hi\"}}}\r\n: keep-alive\n\ndata: {\"payload\":{\"type\":\"sync\"}}\n")
	f.Add("event: message\nid: 1\ndata: not json\ndata: {\"payload\":{}}\ndata: {\"payload\":{\"type\":\"session.idle\"}}")
	f.Fuzz(func(t *testing.T, stream string) {
		r := bufio.NewReaderSize(strings.NewReader(stream), 16)
		dataLines := strings.Count(stream, "data:")
		for n := 0; ; n++ {
			ev, err := nextEvent(r)
			if err != nil {
				if !errors.Is(err, io.EOF) {
					t.Fatalf("nextEvent: %v", err)
				}
				return
			}
			if ev.Type == "" || ev.Type == "sync" {
				t.Fatalf("yielded %+v", ev)
			}
			if n >= dataLines {
				t.Fatalf("more events than data lines (%d)", dataLines)
			}
		}
	})
}

// FuzzNextEventRoundTrip writes one event as the server frames it, between
// other lines of the stream (comments, event names, ids, blank lines), and
// reads it back: the same type and properties.
func FuzzNextEventRoundTrip(f *testing.F) {
	f.Add("session.status", `{"sessionID":"s1","status":{"type":"busy"}}`, ": ping\nevent: message\nid: 7\n")
	f.Add("message.part.updated", `{"part":{"type":"text","text":"data: not a frame\n"}}`, "\n\n")
	f.Add("server.connected", `{}`, "")
	f.Fuzz(func(t *testing.T, typ, props, noise string) {
		if typ == "" || typ == "sync" || !utf8.ValidString(typ) {
			return // not an event the adapter reads
		}
		if !json.Valid([]byte(props)) {
			props = "null"
		}
		line, err := json.Marshal(map[string]any{"directory": "/w", "payload": map[string]any{"type": typ, "properties": json.RawMessage(props)}})
		if err != nil {
			t.Fatal(err)
		}
		var stream strings.Builder
		for _, l := range strings.Split(noise, "\n") {
			if !strings.HasPrefix(strings.TrimSpace(l), "data:") {
				stream.WriteString(l + "\n")
			}
		}
		stream.WriteString("data: " + string(line) + "\n\n")
		ev, err := nextEvent(bufio.NewReader(strings.NewReader(stream.String())))
		if err != nil {
			t.Fatalf("nextEvent: %v", err)
		}
		if ev.Type != typ || adaptertest.CanonicalJSON(ev.Properties) != adaptertest.CanonicalJSON([]byte(props)) {
			t.Fatalf("read %q %s, want %q %s", ev.Type, ev.Properties, typ, props)
		}
	})
}
