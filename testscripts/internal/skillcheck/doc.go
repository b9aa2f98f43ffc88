// Package skillcheck holds the test that the agent skill (stratos-agent/skill)
// mentions only commands, flags and SDK exports that exist. It lives in the
// testscripts module because that module links every tool's command tree.
package skillcheck
