// Command stratos-models is the Stratos models tool; see the README.
package main

import (
	"os"

	"github.com/stratoscli/stratos/stratos-models/command"
)

func main() { os.Exit(command.Main(os.Args, os.Stdin, os.Stdout, os.Stderr)) }
