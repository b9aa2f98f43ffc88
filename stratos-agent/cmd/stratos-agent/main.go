// Command stratos-agent is the Stratos agent tool; see the README.
package main

import (
	"os"

	"github.com/stratoscli/stratos/stratos-agent/command"
)

func main() { os.Exit(command.Main(os.Args, os.Stdin, os.Stdout, os.Stderr)) }
