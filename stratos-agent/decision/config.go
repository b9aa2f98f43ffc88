// Package decision answers decisions: a question (a choice, a score, a
// verdict) asked of a model directly, without a harness, whose answer is
// validated against the question before it is returned. The agent host
// serves decision.ask with it; the rules are in docs/design/decision.md.
package decision

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// Defaults of a decision's configuration.
const (
	DefaultSamples = 1
	DefaultRetries = 2
	DefaultTimeout = 120 * time.Second
)

// Limits of the configuration's fields.
const (
	maxSamples   = 15
	maxRetries   = 10
	maxTimeoutMs = 3_600_000
)

// Providers a decision can name.
const (
	ProviderOllama = "ollama"
)

// Config is a decision's effective configuration: its layers merged field
// by field.
type Config struct {
	Provider string
	Model    string
	BaseURL  string
	// BaseURLFrom names the layer that gave BaseURL.
	BaseURLFrom string
	Samples     int
	Retries     int
	Timeout     time.Duration
	Temperature *float64
	Seed        *int64
	Reasons     bool
	// Script answers the decisions of provider test.
	Script []Scripted
}

// layerConfig is one layer's fields: the protocol's, and the test
// provider's script, which only stratos test's overrides give.
type layerConfig struct {
	agentproto.DecisionConfig
	script *[]Scripted
}

// Layer is one source of configuration, named as errors name it
// ("…/workflow.yaml decision", "overrides.decision", "decision() options").
type Layer struct {
	Name string
	Raw  json.RawMessage
}

// Resolve checks every layer on its own and merges them, the later over
// the earlier, field by field: a field a layer does not give keeps the
// value of the layers before it.
func Resolve(layers ...Layer) (Config, error) {
	var merged layerConfig
	baseURLFrom := ""
	for _, l := range layers {
		c, err := decodeLayer(l)
		if err != nil {
			return Config{}, err
		}
		merge(&merged, c)
		if c.BaseURL != nil {
			baseURLFrom = l.Name
		}
	}
	cfg := Config{Samples: DefaultSamples, Retries: DefaultRetries, Timeout: DefaultTimeout,
		Temperature: merged.Temperature, Seed: merged.Seed}
	setString(&cfg.Provider, merged.Provider)
	setString(&cfg.Model, merged.Model)
	setString(&cfg.BaseURL, merged.BaseURL)
	cfg.BaseURLFrom = baseURLFrom
	if merged.script != nil {
		cfg.Script = *merged.script
	}
	if merged.Samples != nil {
		cfg.Samples = *merged.Samples
	}
	if merged.Retries != nil {
		cfg.Retries = *merged.Retries
	}
	if merged.TimeoutMs != nil {
		cfg.Timeout = time.Duration(*merged.TimeoutMs) * time.Millisecond
	}
	if merged.Reasons != nil {
		cfg.Reasons = *merged.Reasons
	}
	return cfg, nil
}

// decodeLayer reads one layer strictly (unknown fields and wrong types
// are errors) and checks its values' ranges. An absent or null layer
// gives nothing.
func decodeLayer(l Layer) (layerConfig, error) {
	var c layerConfig
	raw := bytes.TrimSpace(l.Raw)
	if len(raw) == 0 || string(raw) == "null" {
		return c, nil
	}
	if raw[0] != '{' {
		return c, configError(l.Name, "", "must be a mapping of decision settings (provider, model, baseUrl, samples, retries, timeoutMs, temperature, seed, reasons, script)")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return c, configError(l.Name, "", "is not valid JSON: %v", err)
	}
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		if err := decodeField(&c, name, fields[name]); err != nil {
			return c, configError(l.Name, name, "%v", err)
		}
	}
	return c, nil
}

// decodeField sets one field of c from its JSON value, checking its type
// and range.
func decodeField(c *layerConfig, name string, raw json.RawMessage) error {
	switch name {
	case "provider":
		return decodeString(raw, &c.Provider)
	case "model":
		return decodeString(raw, &c.Model)
	case "baseUrl":
		return decodeString(raw, &c.BaseURL)
	case "samples":
		return decodeInt(raw, 1, maxSamples, &c.Samples)
	case "retries":
		return decodeInt(raw, 0, maxRetries, &c.Retries)
	case "timeoutMs":
		return decodeInt(raw, 1, maxTimeoutMs, &c.TimeoutMs)
	case "temperature":
		var f float64
		if err := json.Unmarshal(raw, &f); err != nil || isNull(raw) || f < 0 || f > 2 {
			return fmt.Errorf("must be a number from 0 to 2, got %s", shown(raw))
		}
		c.Temperature = &f
	case "seed":
		var n int64
		if err := json.Unmarshal(raw, &n); err != nil || isNull(raw) {
			return fmt.Errorf("must be an integer, got %s", shown(raw))
		}
		c.Seed = &n
	case "reasons":
		var b bool
		if err := json.Unmarshal(raw, &b); err != nil || isNull(raw) {
			return fmt.Errorf("must be true or false, got %s", shown(raw))
		}
		c.Reasons = &b
	case "script":
		script, err := decodeScript(raw)
		if err != nil {
			return err
		}
		c.script = &script
	default:
		return fmt.Errorf("unknown field (known: provider, model, baseUrl, samples, retries, timeoutMs, temperature, seed, reasons, script)")
	}
	return nil
}

func decodeString(raw json.RawMessage, dst **string) error {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || strings.TrimSpace(s) == "" {
		return fmt.Errorf("must be a non-empty string, got %s", shown(raw))
	}
	*dst = &s
	return nil
}

func decodeInt(raw json.RawMessage, lo, hi int, dst **int) error {
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil || isNull(raw) || f != math.Trunc(f) || f < float64(lo) || f > float64(hi) {
		return fmt.Errorf("must be an integer from %d to %d, got %s", lo, hi, shown(raw))
	}
	n := int(f)
	*dst = &n
	return nil
}

// isNull reports a null value, which encoding/json decodes into a number
// or a boolean as nothing at all: the zero value would stand, a
// temperature of 0 or no retries that nobody asked for. YAML writes null
// as a key left empty (temperature:), and JSON.stringify writes NaN and
// Infinity as null (decision(q, {temperature: NaN})).
func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// shown is a value as an error quotes it, cut short.
func shown(raw json.RawMessage) string {
	s := string(bytes.TrimSpace(raw))
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

// merge sets each field over gives in base.
func merge(base *layerConfig, over layerConfig) {
	pick(&base.Provider, over.Provider)
	pick(&base.Model, over.Model)
	pick(&base.BaseURL, over.BaseURL)
	pick(&base.Samples, over.Samples)
	pick(&base.Retries, over.Retries)
	pick(&base.TimeoutMs, over.TimeoutMs)
	pick(&base.Temperature, over.Temperature)
	pick(&base.Seed, over.Seed)
	pick(&base.Reasons, over.Reasons)
	pick(&base.script, over.script)
}

func pick[T any](dst **T, v *T) {
	if v != nil {
		*dst = v
	}
}

func setString(dst *string, v *string) {
	if v != nil {
		*dst = *v
	}
}

// configError is a decision_configuration error naming the layer and the
// field ("" for the layer as a whole).
func configError(layer, field, format string, args ...any) error {
	where := layer
	if field != "" {
		where += "." + field
	}
	return agentproto.Errorf(agentproto.CodeDecisionConfiguration, "%s: %s", where, fmt.Sprintf(format, args...)).
		WithDetails(map[string]any{"layer": layer, "field": field})
}
