// Command stratos-agent is the Stratos agent tool;
// see docs/agents.md and docs/cli/stratos-agent.md.
package main

import (
	"os"

	"github.com/stratoscli/stratos/stratos-agent/command"
)

func main() { os.Exit(command.Main(os.Args, os.Stdin, os.Stdout, os.Stderr)) }
