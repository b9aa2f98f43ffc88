package command

import (
	"context"
	"os"
	"syscall"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/agentapi"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/logging"
	"github.com/stratoscli/stratos/shared/procgroup"
	"github.com/stratoscli/stratos/shared/wirelog"
	"github.com/stratoscli/stratos/stratos-agent/host"
	"github.com/stratoscli/stratos/stratos-agent/jsonrpc"
)

// shutdownWait bounds the cleanup after stdin closed or a signal arrived.
const shutdownWait = 15 * time.Second

// serveCommand is `stratos-agent serve`: the agent host of one top-level
// execution, speaking the agentproto JSON-RPC protocol on stdin/stdout.
func serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "run the agent host of one workflow execution (started by the SDK; JSON-RPC on stdin/stdout)",
		Description: cliapp.Lines(
			"The SDK starts one host per top-level workflow execution when its first agent executes.",
			"Messages are JSON-RPC 2.0, one JSON object per line, in both directions; stderr carries logs.",
			"The protocol is documented in shared/agentproto. The host exits, closing every agent",
			"session and the harness processes they own, when its stdin closes, on SIGINT/SIGTERM,",
			"or when the process that started it dies, even by SIGKILL (Linux: it asks for SIGTERM",
			"then). A shutdown request closes every session; the SDK then closes the pipe."),
		Action: serve,
	}
}

func serve(ctx context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 0, 0, ""); err != nil {
		return err
	}
	log := logging.New("stratos-agent", cmd.Root().ErrWriter)
	// The end of stdin is not enough: when the SDK's node dies by SIGKILL,
	// a process it started may still hold the pipe open. SIGTERM takes the
	// signal path below, which closes every session.
	gone, err := procgroup.DieWithParent(syscall.SIGTERM)
	if err != nil {
		log.Warn("the host will not notice its parent's death", "error", err)
	}
	if gone {
		log.Info("the process that started the agent host is gone; exiting")
		return nil
	}
	tuneHostGC(os.Getenv)
	home, err := os.UserHomeDir()
	if err != nil {
		return clierr.New(agentapi.CodeHomeUnknown, "cannot find the home directory: %v", err)
	}
	h, err := host.New(host.Options{Log: log, Home: home, Stderr: cmd.Root().ErrWriter})
	if err != nil {
		return clierr.New(errcode.CodeInternal, "%v", err)
	}
	conn := jsonrpc.New(cmd.Root().Reader, cmd.Root().Writer, h.Handle, func(err error) { log.Warn("protocol", "error", err) }).
		LogWire(wirelog.FromEnv(os.Getenv, cmd.Root().ErrWriter, "stratos-agent serve"))
	h.SetPeer(conn)

	// The connection's handlers must outlive a signal long enough to clean
	// up, so they get a context that only Serve itself cancels.
	served := make(chan error, 1)
	go func() { served <- conn.Serve(context.WithoutCancel(ctx)) }()
	select {
	case err = <-served:
		if err != nil {
			log.Warn("reading stdin failed", "error", err)
		}
	case <-ctx.Done():
		log.Debug("signal: closing every agent session")
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownWait)
	defer cancel()
	if err := h.Close(cctx); err != nil {
		log.Warn("closing agent sessions", "error", err)
	}
	return nil
}
