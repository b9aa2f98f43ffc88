package invocation

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/runapi"
)

// An endless source ends at the flag's limit, as a usage error that names
// the flag, the file and the limit.
func TestFlagsStopAtTheirLimit(t *testing.T) {
	_, err := ReadOverrides(context.Background(), "@/dev/zero")
	assertTooLarge(t, err, "--overrides @/dev/zero: read /dev/zero: more than the limit of 4 MiB (reading stopped there)", MaxOverridesBytes)
	_, err = ReadInput(context.Background(), "@/dev/zero", nil)
	assertTooLarge(t, err, "--input @/dev/zero: read /dev/zero: more than the limit of 16 MiB (reading stopped there)", MaxInputBytes)
	_, err = ReadInput(context.Background(), "-", io.LimitReader(zeros{}, MaxInputBytes+1))
	assertTooLarge(t, err, "--input -: read stdin: more than the limit of 16 MiB (reading stopped there)", MaxInputBytes)

	big := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(big, []byte(`{"a":"`+strings.Repeat("x", MaxOverridesBytes)+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadOverrides(context.Background(), "@"+big)
	ce := assertTooLarge(t, err, "--overrides @"+big+": read "+big+": 4194312 bytes, over the limit of 4194304 bytes (4 MiB)", MaxOverridesBytes)
	if ce.Details["size"] != int64(MaxOverridesBytes+8) {
		t.Errorf("details.size = %v, want the file's size", ce.Details["size"])
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func assertTooLarge(t *testing.T, err error, message string, limit int64) *clierr.Error {
	t.Helper()
	ce := clierr.As(err)
	if err == nil || ce.Code != runapi.CodeInputTooLarge || ce.Exit != clierr.ExitUsage {
		t.Fatalf("error = %v (code %s, exit %d); want input_too_large, exit 2", err, ce.Code, ce.Exit)
	}
	if !strings.HasPrefix(ce.Message, message) {
		t.Errorf("message = %q, want it to start with %q", ce.Message, message)
	}
	if ce.Details["limit"] != limit {
		t.Errorf("details.limit = %v, want %d", ce.Details["limit"], limit)
	}
	return ce
}

// Ctrl-C while a flag's source blocks (a FIFO nobody writes, a stdin that
// never ends) ends the read at once, as an interruption.
func TestInterruptEndsABlockedRead(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := ReadOverrides(ctx, "@"+fifo)
	assertInterrupted(t, err, "interrupted while reading --overrides @"+fifo)
	if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
		w.Close() // ends the open left waiting for a writer
	}

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	ctx, cancel = context.WithCancel(context.Background())
	go func() {
		_, _ = w.Write([]byte(`{"never": "ends`))
		cancel()
	}()
	_, err = ReadInput(ctx, "-", r)
	assertInterrupted(t, err, "interrupted while reading --input -")
}

func assertInterrupted(t *testing.T, err error, message string) {
	t.Helper()
	ce := clierr.As(err)
	if err == nil || ce.Code != errcode.CodeInterrupted || ce.Exit != clierr.ExitInterrupted || ce.Message != message ||
		!errors.Is(err, context.Canceled) {
		t.Errorf("error = %v (code %s, exit %d); want %q, code interrupted, exit 130", err, ce.Code, ce.Exit, message)
	}
}
