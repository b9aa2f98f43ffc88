package command

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/runapi"
)

// An empty --host (an unset shell variable: --host "$HOST") is refused:
// net.Listen takes "" as every address of the machine, so it served the
// records to the network under a URL without a host (http://:8737/).
func TestServeRefusesAnEmptyHost(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	for _, host := range []string{"", " "} {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		var out, errOut bytes.Buffer
		cmd := Root()
		cmd.Writer, cmd.ErrWriter = &out, &errOut
		err := cmd.Run(ctx, []string{"stratos-run", "serve", "--host", host, "--port", "0"})
		cancel()
		if ce := clierr.As(err); ce.Code != runapi.CodeServeRequestInvalid || ce.Exit != clierr.ExitUsage {
			t.Errorf("--host %q: %v (printed %q, %q); want a usage error %s", host, err, out.String(), errOut.String(), runapi.CodeServeRequestInvalid)
		}
		if out.Len() > 0 {
			t.Errorf("--host %q printed a URL: %q", host, out.String())
		}
	}
}
