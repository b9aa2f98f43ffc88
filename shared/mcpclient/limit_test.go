package mcpclient

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// A read whose response cannot fit its limit is refused while it is read,
// on both HTTP response forms (a legacy session answers with an event
// stream, a modern one with JSON), and the session lives on; a read that
// fits is whole.
func TestReadResourceStopsAtItsLimit(t *testing.T) {
	for _, c := range notifyingServers()[:2] { // the HTTP servers
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			client, err := Connect(ctx, c.server(t), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer client.Close()
			_, err = client.ReadResource(ctx, "fake://sized/200000", 1000)
			var tooLarge *ResourceTooLargeError
			if !errors.As(err, &tooLarge) || tooLarge.Limit != 1000 || tooLarge.URI != "fake://sized/200000" {
				t.Fatalf("err = %v, want a ResourceTooLargeError", err)
			}
			res, err := client.ReadResource(ctx, "fake://sized/1000", 1000)
			if err != nil {
				t.Fatalf("a read that fits after one that did not: %v", err)
			}
			if got := res.Contents[0].Text; got != strings.Repeat("<", 1000) {
				t.Errorf("read %d bytes", len(got))
			}
		})
	}
}

// A stdio server's line and an HTTP server's event may be as large as the
// largest read allows: the SDK's default (16 MiB) would end the session in
// the middle of a 16 MiB read. (Reading such a line takes about a minute
// under the race detector, so the bound is checked, not exercised.)
func TestTransportsCarryTheLargestRead(t *testing.T) {
	if got := (&stdioProcess{}).transport().(*mcp.IOTransport).MaxLineLength; got != MaxMessageBytes {
		t.Errorf("stdio: MaxLineLength %d, want %d", got, MaxMessageBytes)
	}
	if encoded := 4 * ((agentproto.MaxResourceLimit + 2) / 3); encoded+64<<10 > MaxMessageBytes {
		t.Errorf("the largest read, %d bytes of base64, does not fit %d bytes", encoded, MaxMessageBytes)
	}
	var c Client
	tr, err := c.transport(context.Background(), mcpdecl.Server{Name: "fake", Transport: mcpdecl.TransportHTTP, URL: "http://127.0.0.1:1/mcp"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := tr.(*mcp.StreamableClientTransport).MaxEventSize; got != MaxMessageBytes {
		t.Errorf("HTTP: MaxEventSize %d, want %d", got, MaxMessageBytes)
	}
}
