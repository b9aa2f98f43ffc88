package toolcall_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
	"github.com/stratoscli/stratos/shared/sibling"
	"github.com/stratoscli/stratos/shared/toolcall"
)

// fake is the callee of the tests: this test binary, run under this name
// (a symbolic link in $STRATOS_BIN_DIR), is a tool built on cliapp like
// every Stratos tool, so the callee's side of the protocol is the tools'
// own.
const fake = "stratos-fake"

// envSpeaks makes the fake a stale binary of another install: it speaks
// the protocol version this variable names.
const envSpeaks = "TOOLCALL_TEST_SPEAKS"

func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == fake {
		os.Exit(fakeMain())
	}
	os.Exit(withFake(m))
}

// withFake links the fake into a directory of its own, which sibling.Find
// searches, and runs the tests.
func withFake(m *testing.M) int {
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	dir, err := os.MkdirTemp("", "toolcall-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := os.Symlink(self, filepath.Join(dir, fake)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	os.Setenv(sibling.EnvBinDir, dir)
	return m.Run()
}

func fakeMain() int {
	if own := os.Getenv(envSpeaks); own != "" {
		self, _ := os.Executable()
		if err := toolcall.CheckAs(own, fake, self, os.Getenv(toolcall.EnvVersion)); err != nil {
			_ = clierr.WriteJSON(os.Stdout, err)
			return clierr.ExitCode(err)
		}
	}
	return cliapp.Run(fakeCommand(), os.Args, cliapp.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
}

func fakeCommand() *cli.Command {
	sub := func(name string, action cli.ActionFunc, flags ...cli.Flag) *cli.Command {
		return &cli.Command{Name: name, Flags: append(flags, cliapp.JSONFlag()), Action: action}
	}
	return &cli.Command{Name: fake, Commands: []*cli.Command{
		sub("echo", echo, &cli.StringFlag{Name: "overrides"}),
		sub("fail", func(context.Context, *cli.Command) error {
			return clierr.Usage(worktreeapi.CodePathConflict, "the path is taken").WithDetails(map[string]any{"path": "/taken"})
		}),
		sub("broken", func(context.Context, *cli.Command) error {
			return clierr.New(errcode.CodeInternal, "the schema did not compile")
		}),
		sub("problems", func(_ context.Context, cmd *cli.Command) error {
			_ = clierr.PrintJSON(cmd.Root().Writer, answer{Valid: false, Problems: []string{"agents.x: unknown field"}})
			return cliapp.Silent(clierr.ExitFailed)
		}),
		sub("crash", func(_ context.Context, cmd *cli.Command) error {
			fmt.Fprintln(cmd.Root().ErrWriter, "panic: the fake broke")
			return cliapp.Silent(3)
		}),
		sub("flood", func(_ context.Context, cmd *cli.Command) error {
			// One JSON string that never ends, until the caller stops it.
			fmt.Fprint(cmd.Root().Writer, `{"line":"`)
			chunk := []byte(strings.Repeat("a", 4096))
			for {
				if _, err := cmd.Root().Writer.Write(chunk); err != nil {
					return err
				}
			}
		}),
		sub("lines", func(_ context.Context, cmd *cli.Command) error {
			for i := 1; i <= 3; i++ {
				fmt.Fprintf(cmd.Root().Writer, "{\"n\":%d}\n", i)
			}
			return nil
		}),
		sub("env", func(_ context.Context, cmd *cli.Command) error {
			v, set := os.LookupEnv(toolcall.EnvVersion)
			return clierr.PrintJSON(cmd.Root().Writer, map[string]any{"set": set, "value": v})
		}),
		sub("hang", hang, &cli.StringFlag{Name: "dir"}),
	}}
}

// answer is the fake's result document.
type answer struct {
	Got      json.RawMessage `json:"got,omitempty"`
	Valid    bool            `json:"valid"`
	Problems []string        `json:"problems,omitempty"`
}

// echo answers with the input it read.
func echo(_ context.Context, cmd *cli.Command) error {
	in, err := io.ReadAll(cmd.Root().Reader)
	if err != nil {
		return err
	}
	return clierr.PrintJSON(cmd.Root().Writer, answer{Got: in, Valid: true})
}

// hang writes its pid to <dir>/pid and waits to be stopped; a SIGTERM is
// noted in <dir>/terminated before it exits.
func hang(_ context.Context, cmd *cli.Command) error {
	dir := cmd.String("dir")
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM)
	if err := os.WriteFile(filepath.Join(dir, "pid.tmp"), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return err
	}
	if err := os.Rename(filepath.Join(dir, "pid.tmp"), filepath.Join(dir, "pid")); err != nil {
		return err
	}
	<-term
	return os.WriteFile(filepath.Join(dir, "terminated"), nil, 0o644)
}
