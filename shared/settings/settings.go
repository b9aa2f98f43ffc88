// Package settings loads the user's ~/.stratos/settings.json.
//
// The file is optional. When present it is validated strictly: unknown keys,
// wrong types and non-positive limits are errors that name the file and the
// key, because a silently ignored typo would change agent admission limits
// without anybody noticing.
package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/boundedread"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/discoverapi"
)

// Defaults of ~/.stratos/settings.json (docs/agents.md, "Admission").
const (
	DefaultMaxConcurrent  = 10
	DefaultMaxOutstanding = 100
	// Decisions take no agent slots: their own limits (docs/decision.md).
	// A local model server answers few requests at once, so few run.
	DefaultDecisionsMaxConcurrent  = 8
	DefaultDecisionsMaxOutstanding = 1000
	// DefaultDefinitionTimeout bounds loading one workflow's definition:
	// evaluating its module's top-level code.
	DefaultDefinitionTimeout = 30 * time.Second
)

// MaxFileBytes bounds the settings file: a handful of keys, so 1 MiB is
// far above any real one (docs/files.md).
const MaxFileBytes = 1 << 20

// Settings is the effective user configuration.
type Settings struct {
	Agents    Agents    `json:"agents"`
	Decisions Decisions `json:"decisions"`
	Build     Build     `json:"build"`
	// Engine is where stratos run runs workflows by default: EngineLocal
	// (this process's machine) or EngineTemporal (Temporal workers).
	Engine string `json:"engine"`
	// ACPAgents are the ACP agents this machine runs by name: an agent
	// configuration's acp field may name one instead of giving the program.
	ACPAgents map[string]agentproto.ACPAgent `json:"acpAgents"`
}

// Engines.
const (
	EngineLocal    = "local"
	EngineTemporal = "temporal"
)

// Decisions holds the per-top-level-execution admission limits of
// decisions, counted apart from agents'.
type Decisions struct {
	MaxConcurrent  int `json:"maxConcurrent"`
	MaxOutstanding int `json:"maxOutstanding"`
}

// Build holds the limits of preparing workflows.
type Build struct {
	// DefinitionTimeout is how long loading a workflow's definition may
	// take (a Go duration string in the file: "30s", "2m").
	DefinitionTimeout time.Duration `json:"definitionTimeout"`
}

// Agents holds the per-top-level-execution admission limits.
type Agents struct {
	MaxConcurrent  int `json:"maxConcurrent"`
	MaxOutstanding int `json:"maxOutstanding"`
}

// Default returns the settings used when the file is absent.
func Default() Settings {
	return Settings{
		Agents:    Agents{MaxConcurrent: DefaultMaxConcurrent, MaxOutstanding: DefaultMaxOutstanding},
		Decisions: Decisions{MaxConcurrent: DefaultDecisionsMaxConcurrent, MaxOutstanding: DefaultDecisionsMaxOutstanding},
		Build:     Build{DefinitionTimeout: DefaultDefinitionTimeout},
		Engine:    EngineLocal,
	}
}

// Path returns the settings file under the given Stratos home (~/.stratos).
func Path(stratosHome string) string { return filepath.Join(stratosHome, "settings.json") }

// Load reads the settings file at path. A missing file yields the defaults.
// Only a regular file of at most MaxFileBytes is read: a FIFO or a device
// there would block the command or never end.
func Load(path string) (Settings, error) {
	data, err := boundedread.RegularFile(path, MaxFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return Default(), nil
	}
	if err != nil {
		return Settings{}, invalid(path, "", "%v", err) // names the path
	}
	return Parse(path, data)
}

// Parse validates data as the content of the settings file at path.
func Parse(path string, data []byte) (Settings, error) {
	s := Default()
	var top map[string]json.RawMessage
	if err := decodeObject(data, &top); err != nil {
		return Settings{}, invalid(path, "", "%s: not a JSON object: %v", path, err)
	}
	for key, raw := range top {
		var err error
		switch key {
		case "agents":
			err = parseLimits(path, key, raw, &s.Agents.MaxConcurrent, &s.Agents.MaxOutstanding)
		case "decisions":
			err = parseLimits(path, key, raw, &s.Decisions.MaxConcurrent, &s.Decisions.MaxOutstanding)
		case "build":
			err = parseBuild(path, raw, &s.Build)
		case "engine":
			err = parseEngine(path, raw, &s.Engine)
		case "acpAgents":
			s.ACPAgents, err = parseACPAgents(path, raw)
		default:
			err = invalid(path, key, "%s: unknown key %q (known: acpAgents, agents, build, decisions, engine)", path, key)
		}
		if err != nil {
			return Settings{}, err
		}
	}
	return s, nil
}

// parseEngine reads the default engine.
func parseEngine(path string, raw json.RawMessage, dst *string) error {
	var e string
	if err := json.Unmarshal(raw, &e); err != nil || (e != EngineLocal && e != EngineTemporal) {
		return invalid(path, "engine", "%s: key \"engine\" must be \"local\" or \"temporal\", not %s", path, raw)
	}
	*dst = e
	return nil
}

// parseLimits reads the admission limits of section (agents or
// decisions).
func parseLimits(path, section string, raw json.RawMessage, maxConcurrent, maxOutstanding *int) error {
	var limits map[string]json.RawMessage
	if err := decodeObject(raw, &limits); err != nil {
		return invalid(path, section, "%s: key %q must be an object", path, section)
	}
	for k, v := range limits {
		var dst *int
		switch k {
		case "maxConcurrent":
			dst = maxConcurrent
		case "maxOutstanding":
			dst = maxOutstanding
		default:
			return invalid(path, section+"."+k, "%s: unknown key \"%s.%s\" (known: %s.maxConcurrent, %s.maxOutstanding)", path, section, k, section, section)
		}
		n, err := positiveInt(v)
		if err != nil {
			return invalid(path, section+"."+k, "%s: key \"%s.%s\" %v", path, section, k, err)
		}
		*dst = n
	}
	return nil
}

func parseBuild(path string, raw json.RawMessage, b *Build) error {
	var build map[string]json.RawMessage
	if err := decodeObject(raw, &build); err != nil {
		return invalid(path, "build", "%s: key \"build\" must be an object", path)
	}
	for k, v := range build {
		if k != "definitionTimeout" {
			return invalid(path, "build."+k, "%s: unknown key \"build.%s\" (known: build.definitionTimeout)", path, k)
		}
		d, err := positiveDuration(v)
		if err != nil {
			return invalid(path, "build."+k, "%s: key \"build.%s\" %v", path, k, err)
		}
		b.DefinitionTimeout = d
	}
	return nil
}

func decodeObject(data []byte, dst *map[string]json.RawMessage) error {
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' {
		return errors.New("expected an object")
	}
	return json.Unmarshal(data, dst)
}

func positiveInt(raw json.RawMessage) (int, error) {
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		return 0, fmt.Errorf("must be a positive integer, got %s", raw)
	}
	if f != float64(int(f)) || f < 1 {
		return 0, fmt.Errorf("must be a positive integer, got %s", raw)
	}
	return int(f), nil
}

func positiveDuration(raw json.RawMessage) (time.Duration, error) {
	var text string
	if err := json.Unmarshal(raw, &text); err != nil {
		return 0, fmt.Errorf("must be a duration string such as \"30s\" or \"2m\", got %s", raw)
	}
	d, err := time.ParseDuration(text)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("must be a positive duration such as \"30s\" or \"2m\", got %s", raw)
	}
	return d, nil
}

func invalid(path, key, format string, args ...any) error {
	return clierr.Usage(discoverapi.CodeSettingsInvalid, format, args...).
		WithDetails(map[string]any{"file": path, "key": key})
}
