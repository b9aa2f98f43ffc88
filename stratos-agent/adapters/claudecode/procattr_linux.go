package claudecode

import "syscall"

// procAttr puts the CLI in its own process group (so a signal reaches every
// process it started in that group) and asks the kernel to SIGTERM it when
// the host dies, so a killed `stratos-agent serve` does not leave a CLI
// behind. SIGTERM, unlike SIGKILL, lets the CLI stop its background shells
// (docs/design/claude-code-cli.md, "Shutdown").
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
