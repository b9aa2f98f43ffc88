package toolcall

import (
	"os"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
)

// Accept is the callee's side of the protocol, run at the entry of every
// tool before its command does anything (shared/cliapp runs it for every
// tool built on it). Run by another tool, the tool checks the Version its
// caller states: nil when it is this build's, or when nobody states one (a
// person or a script runs the tool); otherwise a tool_protocol_mismatch
// error naming this binary and both versions, which the tool reports as it
// reports any error and the caller turns into one naming both binaries.
//
// The statement is taken out of this process's environment: the tools this
// one starts in turn are called by it, not by its caller, and a tool of
// another install that a harness or a script runs later must not read it.
func Accept(tool string) error {
	stated, ok := os.LookupEnv(EnvVersion)
	if !ok {
		return nil
	}
	_ = os.Unsetenv(EnvVersion)
	_, path := self()
	return check(Version, tool, path, stated)
}

// check compares the version a caller stated with own, the one the tool
// at path speaks.
func check(own, tool, path, stated string) error {
	if stated == own {
		return nil
	}
	d := MismatchDetails{Tool: tool, Path: path, Protocol: own, CallerProtocol: stated}
	return clierr.New(errcode.CodeToolProtocolMismatch,
		"%s speaks tool protocol %s, but the tool running it speaks %q: the two come from different installs; %s",
		path, own, stated, installHint).WithDetails(d.asMap())
}

// self is this process's tool name and binary.
func self() (name, path string) {
	path, err := os.Executable()
	if err != nil {
		path = os.Args[0]
	}
	return filepath.Base(path), path
}
