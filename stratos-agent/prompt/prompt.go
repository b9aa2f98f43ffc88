// Package prompt loads prompt sources (literal text, plain files, Handlebars
// templates) and renders templates with raymond. A variable that a template
// uses but nobody supplied is an error before anything reaches a harness; it
// never renders as empty text.
package prompt

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/aymerick/raymond"
	"github.com/aymerick/raymond/parser"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/boundedread"
)

// MaxFileBytes bounds a prompt file or template: 4 MiB of text is more
// than the largest context a model takes (about a million tokens), so a
// larger prompt could not be sent whole anyway (docs/files.md). Only a
// regular file is read: a FIFO would block the execute.
const MaxFileBytes = 4 << 20

// Text is a loaded prompt: literal or file content, or a template to render.
type Text struct {
	Body     string
	Template bool
	// Origin names where it came from in messages: a file path or "inline".
	Origin string
}

// Load reads src. Files and templates resolve against root (the workflow
// directory) unless absolute. A {configId} source must have been replaced
// by the configuration's prompt before.
func Load(src agentproto.PromptSource, root string) (Text, error) {
	switch src.Kind() {
	case "text":
		return Text{Body: *src.Text, Origin: "inline"}, nil
	case "file", "template":
		name := src.File
		if name == "" {
			name = src.Template
		}
		path := name
		if !filepath.IsAbs(path) {
			path = filepath.Join(root, name)
		}
		b, err := boundedread.RegularFile(path, MaxFileBytes)
		if err != nil {
			return Text{}, agentproto.Errorf(agentproto.CodePromptFile, "read %s %q: %v (paths resolve against the workflow directory %s)", src.Kind(), name, err, root).
				WithDetails(map[string]any{"path": path})
		}
		return Text{Body: string(b), Template: src.Kind() == "template", Origin: path}, nil
	}
	return Text{}, agentproto.Errorf(agentproto.CodeConfiguration, "empty prompt source")
}

// Render returns t's text; a template is rendered with vars after checking
// that every variable it uses is supplied. Values are inserted as they are:
// prompts are text, so {{x}} does not HTML-escape (like {{{x}}}).
func (t Text) Render(field string, vars map[string]json.RawMessage) (string, error) {
	if !t.Template {
		return t.Body, nil
	}
	prog, err := parser.Parse(t.Body)
	if err != nil {
		return "", agentproto.Errorf(agentproto.CodePromptFile, "%s template %s: %v", field, t.Origin, err).
			WithDetails(map[string]any{"path": t.Origin})
	}
	values := make(map[string]any, len(vars))
	for k, raw := range vars {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return "", agentproto.Errorf(agentproto.CodeConfiguration, "%s template variable %q: %v", field, k, err)
		}
		values[k] = v
	}
	var w walker
	w.program(prog, 0, nil)
	if w.keyParam != 0 {
		return "", agentproto.Errorf(agentproto.CodePromptFile,
			"%s template %s: line %d: each's second block parameter (as |item key|) is not supported: use @key or @index", field, t.Origin, w.keyParam).
			WithDetails(map[string]any{"path": t.Origin, "line": w.keyParam})
	}
	if name, line, ok := missing(w.uses, values); ok {
		return "", agentproto.Errorf(agentproto.CodeTemplateVariableMissing,
			"%s template %s uses the variable %q (line %d), but no value was supplied: pass it in templateVariables.%s or as execute()'s second argument",
			field, t.Origin, name, line, field).
			WithDetails(map[string]any{"variable": name, "template": t.Origin, "line": line, "field": field})
	}
	tpl, err := parse(t.Body)
	if err != nil {
		return "", agentproto.Errorf(agentproto.CodePromptFile, "%s template %s: %v", field, t.Origin, err)
	}
	out, err := execute(tpl, unescaped(values))
	if err != nil {
		return "", agentproto.Errorf(agentproto.CodePromptFile, "%s template %s: %v", field, t.Origin, err)
	}
	return out, nil
}

// execute evaluates tpl with ctx. raymond turns its own evaluation errors
// into errors but re-panics the runtime errors its evaluation can raise on
// some valid templates ({{@.}} indexes an empty slice; {{#if a @index}}
// dereferences nil). A template is the author's input, not our bug, so
// such a panic is this template's error, not the end of the agent host.
func execute(tpl *raymond.Template, ctx any) (out string, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = "", fmt.Errorf("the template cannot be evaluated: %v", r)
		}
	}()
	return tpl.Exec(ctx)
}

// unescaped marks every string as safe so raymond does not HTML-escape it.
func unescaped(v any) any {
	switch x := v.(type) {
	case string:
		return raymond.SafeString(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = unescaped(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = unescaped(e)
		}
		return out
	}
	return v
}
