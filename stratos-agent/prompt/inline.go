package prompt

import (
	"fmt"
	"sync"

	"github.com/aymerick/raymond"
)

// Inline renders inline template bodies (the test harness's replies and
// values), parsing each body once. A script's reply is rendered on every
// execute, and parsing is most of a render's cost: raymond's lexer runs
// on a goroutine of its own and hands each token over a channel, which
// on a busy host means waking a thread per token. A parsed template is
// safe to execute concurrently. The zero value is ready; a nil *Inline
// parses on every render.
type Inline struct {
	mu     sync.Mutex
	parsed map[string]*raymond.Template
}

// maxInline bounds the bodies an Inline keeps (a script's strings, so
// only a generated script could have more); later ones are parsed on every
// render.
const maxInline = 1024

// Render renders an inline template body with an already decoded context.
// Missing variables are not checked: the context is the harness's own.
func (in *Inline) Render(body string, ctx map[string]any) (string, error) {
	tpl, err := in.template(body)
	if err != nil {
		return "", fmt.Errorf("template: %w", err)
	}
	return execute(tpl, unescaped(ctx))
}

func (in *Inline) template(body string) (*raymond.Template, error) {
	if in == nil {
		return parse(body)
	}
	in.mu.Lock()
	tpl := in.parsed[body]
	in.mu.Unlock()
	if tpl != nil {
		return tpl, nil
	}
	tpl, err := parse(body)
	if err != nil {
		return nil, err
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.parsed == nil {
		in.parsed = map[string]*raymond.Template{}
	}
	if len(in.parsed) < maxInline {
		in.parsed[body] = tpl
	}
	return tpl, nil
}
