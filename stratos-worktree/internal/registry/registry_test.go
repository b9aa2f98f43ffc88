package registry

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gofrs/flock"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
)

// The test binary doubles as a helper process (selected by environment), so
// crashes and lock holders are real processes.
const (
	envHelper = "REGISTRY_TEST_HELPER"
	envDir    = "REGISTRY_TEST_DIR"
)

func TestMain(m *testing.M) {
	switch os.Getenv(envHelper) {
	case "crash-before-rename":
		crashBeforeRename(os.Getenv(envDir))
	case "hold-lock":
		holdLock(os.Getenv(envDir))
	}
	os.Exit(m.Run())
}

// crashBeforeRename writes a new version of record "w" and is killed by
// SIGKILL after the temp file is complete and before the rename.
func crashBeforeRename(dir string) {
	s := &Store{Dir: dir, beforeRename: func() {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		time.Sleep(time.Minute)
	}}
	_ = s.Save(&Record{Name: "w", Branch: "stratos/new-version", Owners: []Owner{{ID: "crasher", PID: 1}}}, false)
	os.Exit(3) // not reached
}

// holdLock takes the lock of "w", says so on stdout, and holds it until killed.
func holdLock(dir string) {
	l := &Locks{Dir: dir}
	_ = l.With(context.Background(), "w", func() error {
		fmt.Println("locked")
		time.Sleep(time.Minute)
		return nil
	})
	os.Exit(0)
}

func TestSaveLoadRoundTrip(t *testing.T) {
	s := &Store{Dir: t.TempDir()}
	now := time.Now().UTC().Round(time.Second)
	rec := &Record{Name: "w", Branch: "stratos/w", CreatedAt: now}
	rec.AddOwner(Owner{ID: "b", PID: 2, StartTime: 20, AcquiredAt: now})
	rec.AddOwner(Owner{ID: "a", PID: 1, StartTime: 10, AcquiredAt: now})
	rec.AddOwner(Owner{ID: "b", PID: 3, StartTime: 30, AcquiredAt: now}) // same id: replaces
	if err := s.Save(rec, true); err != nil {
		t.Fatal(err)
	}
	got, ok, err := s.Load("w")
	if err != nil || !ok {
		t.Fatalf("Load: %v %v", ok, err)
	}
	if !reflect.DeepEqual(got, rec) {
		t.Fatalf("got %+v, want %+v", got, rec)
	}
	if ids := []string{got.Owners[0].ID, got.Owners[1].ID}; ids[0] != "a" || ids[1] != "b" || got.Owners[1].PID != 3 {
		t.Fatalf("owners %+v, want a then b(pid 3)", got.Owners)
	}
	if _, ok, err := s.Load("absent"); ok || err != nil {
		t.Fatalf("Load(absent) = %v, %v", ok, err)
	}
}

func TestLoadNamesTheCorruptFile(t *testing.T) {
	s := &Store{Dir: t.TempDir()}
	if err := os.WriteFile(s.RecordPath("w"), []byte(`{"formatVersion":1,"name":"w"`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := s.Load("w")
	if err == nil || !strings.Contains(err.Error(), s.RecordPath("w")) {
		t.Fatalf("error %v does not name the file", err)
	}
}

// A writer killed between writing the temp file and renaming it leaves the
// previous record intact; the stray temp file is not taken for a record and
// is removed by the next holder of the lock.
func TestRecordSurvivesCrashBetweenWriteAndRename(t *testing.T) {
	dir := t.TempDir()
	s := &Store{Dir: dir}
	old := &Record{Name: "w", Branch: "stratos/w", Protected: true, Owners: []Owner{}}
	if err := s.Save(old, true); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envHelper+"=crash-before-rename", envDir+"="+dir)
	err := cmd.Run()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("helper did not die by SIGKILL: %v", err)
	}
	temps, _ := filepath.Glob(filepath.Join(dir, ".w.json.tmp-*"))
	if len(temps) != 1 {
		t.Fatalf("want the crashed writer's temp file, found %v", temps)
	}
	got, ok, err := s.Load("w")
	if err != nil || !ok || !reflect.DeepEqual(got, old) {
		t.Fatalf("after crash Load = %+v, %v, %v; want the old record", got, ok, err)
	}
	names, err := s.Names()
	if err != nil || !reflect.DeepEqual(names, []string{"w"}) {
		t.Fatalf("Names = %v, %v; want [w]", names, err)
	}
	n, err := s.RemoveTemps("w")
	if err != nil || n != 1 {
		t.Fatalf("RemoveTemps = %d, %v; want 1", n, err)
	}
}

func TestLocksRefuseNestingAndReentry(t *testing.T) {
	l := &Locks{Dir: t.TempDir()}
	ctx := context.Background()
	for _, inner := range []string{"a", "b"} {
		err := l.With(ctx, "a", func() error {
			return l.With(ctx, inner, func() error { return nil })
		})
		if !errors.Is(err, ErrLockNesting) {
			t.Fatalf("nested lock of %q: %v, want ErrLockNesting", inner, err)
		}
	}
	// The lock is released after a failing fn: it can be taken again.
	boom := errors.New("boom")
	if err := l.With(ctx, "a", func() error { return boom }); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if err := l.With(ctx, "a", func() error { return nil }); err != nil {
		t.Fatal(err)
	}
}

// A lock held by another process makes With give up after the timeout with a
// LockTimeoutError, leaving the other process's lock alone; a different
// worktree's lock is not affected.
func TestLockTimeoutWhileAnotherProcessHoldsIt(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envHelper+"=hold-lock", envDir+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	buf := make([]byte, len("locked\n"))
	if _, err := out.Read(buf); err != nil || string(buf) != "locked\n" {
		t.Fatalf("helper did not report the lock: %q %v", buf, err)
	}
	l := &Locks{Dir: dir, Timeout: 200 * time.Millisecond}
	ran := false
	err = l.With(context.Background(), "w", func() error { ran = true; return nil })
	var lte *LockTimeoutError
	if !errors.As(err, &lte) || ran || lte.Name != "w" {
		t.Fatalf("With = %v (ran %v), want LockTimeoutError for w", err, ran)
	}
	if err := l.With(context.Background(), "other", func() error { return nil }); err != nil {
		t.Fatalf("unrelated lock: %v", err)
	}
}

// An operation interrupted (SIGINT/SIGTERM cancel its context) while it
// waits for a lock another holder has reports interrupted, exit 130, with
// the phase and the lock, and runs nothing.
func TestLockWaitInterruptedNamesThePhase(t *testing.T) {
	dir := t.TempDir()
	l := &Locks{Dir: dir, Timeout: time.Hour}
	holder := flock.New(l.LockPath("w"))
	if ok, err := holder.TryLock(); err != nil || !ok {
		t.Fatalf("hold the lock: %v %v", ok, err)
	}
	defer holder.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran := false
	err := l.With(ctx, "w", func() error { ran = true; return nil })
	ce := clierr.As(err)
	if ran || ce.Code != errcode.CodeInterrupted || ce.Exit != clierr.ExitInterrupted || ce.Details["phase"] != PhaseLock || ce.Details["lock"] != l.LockPath("w") {
		t.Fatalf("With = %v %+v (ran %v), want interrupted in phase %q", err, ce, ran, PhaseLock)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("the interruption does not wrap the context's error: %v", err)
	}
}
