// Package logging builds the stderr logger every Stratos tool uses. Stdout is
// reserved for results (one JSON document with --json), so all progress,
// warnings and diagnostics go through this logger to stderr.
package logging

import (
	"io"
	"os"
	"strings"

	"github.com/hashicorp/go-hclog"
)

// EnvLevel names the environment variable that sets the log level
// (trace, debug, info, warn, error, off). The default is info.
const EnvLevel = "STRATOS_LOG_LEVEL"

// New returns a logger named after the tool, writing to w (normally stderr).
// NO_COLOR is honoured; colour is only used on a terminal anyway.
func New(tool string, w io.Writer) hclog.Logger {
	level := hclog.LevelFromString(os.Getenv(EnvLevel))
	if level == hclog.NoLevel {
		level = hclog.Info
	}
	color := hclog.AutoColor
	if _, ok := os.LookupEnv("NO_COLOR"); ok {
		color = hclog.ColorOff
	}
	return hclog.New(&hclog.LoggerOptions{
		Name:                 tool,
		Level:                level,
		Output:               w,
		Color:                color,
		DisableTime:          !strings.EqualFold(os.Getenv("STRATOS_LOG_TIME"), "1"),
		ColorHeaderAndFields: false,
	})
}
