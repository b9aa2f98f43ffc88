//go:build !unix

package supervise

import "syscall"

// procAttr: process groups are a Unix concept; elsewhere the runner notices
// a vanished stratos run by the end of its stdin.
func procAttr() *syscall.SysProcAttr { return nil }

func killGroup(int) {}
