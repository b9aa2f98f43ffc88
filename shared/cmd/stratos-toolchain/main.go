// Command stratos-toolchain is a developer tool of this repository (not
// shipped): scripts/prepare-test-cache runs `ensure` so that tests find a
// provisioned toolchain through the same code path users take, and
// scripts/build-sdk runs `build-sdk` to regenerate the SDK's agent-protocol.ts
// and recompile the embedded TypeScript SDK.
package main

import (
	"context"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/agentproto/protogen"
	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/logging"
	"github.com/stratoscli/stratos/shared/sdk/sdkbuild"
	"github.com/stratoscli/stratos/shared/toolchain"
)

func main() {
	os.Exit(cliapp.Run(newCommand(os.Stderr), os.Args, cliapp.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}

func newCommand(stderr io.Writer) *cli.Command {
	log := logging.New("stratos-toolchain", stderr)
	return &cli.Command{
		Name:  "stratos-toolchain",
		Usage: "provision the Stratos toolchain and rebuild the SDK (repository tool)",
		Commands: []*cli.Command{
			{
				Name:  "ensure",
				Usage: "provision node, npm and tsc into $STRATOS_TOOLCHAIN_DIR and print them as JSON",
				Action: func(ctx context.Context, cmd *cli.Command) error {
					tc, err := toolchain.Ensure(ctx, toolchain.Options{Log: log})
					if err != nil {
						return err
					}
					return clierr.PrintJSON(cmd.Writer, tc)
				},
			},
			{
				Name:  "build-sdk",
				Usage: "recompile the SDK's TypeScript sources into its committed dist/",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "src", Value: "shared/sdk/src", Usage: "the SDK's TypeScript sources"},
					&cli.StringFlag{Name: "out", Value: "shared/sdk/dist", Usage: "the output directory (replaced)"},
					&cli.StringFlag{Name: "proto", Value: "shared/agentproto", Usage: "the agent protocol's Go package, which agent-protocol.ts is generated from"},
				},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					if err := writeAgentProtocol(cmd.String("proto"), cmd.String("src")); err != nil {
						return err
					}
					tc, err := toolchain.Ensure(ctx, toolchain.Options{Log: log})
					if err != nil {
						return err
					}
					if err := sdkbuild.Compile(ctx, tc, log, cmd.String("src"), cmd.String("out")); err != nil {
						return err
					}
					log.Info("compiled the SDK", "src", cmd.String("src"), "out", cmd.String("out"))
					return nil
				},
			},
		},
	}
}

// writeAgentProtocol regenerates the SDK's agent-protocol.ts in srcDir from
// the Go types of the agent protocol in protoDir.
func writeAgentProtocol(protoDir, srcDir string) error {
	ts, err := protogen.Generate(protoDir)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(srcDir, "agent-protocol.ts"), ts, 0o644)
}
