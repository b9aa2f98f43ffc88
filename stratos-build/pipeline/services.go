package pipeline

import (
	"context"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/toolchain"
)

// The stages of a build share three small services, each the one owner of
// its state: the toolchain, ensured on first use; where the build is, for
// the error of an interrupted one; and the warnings it collects. Stages
// call them from the builder's goroutine only.

// toolchainSource hands out the invocation's toolchain, ensuring it on
// first use: reusing fresh builds needs no node, npm or tsc.
type toolchainSource struct {
	ensure func(ctx context.Context) (*toolchain.Toolchain, error)
	tc     *toolchain.Toolchain
}

func (s *toolchainSource) get(ctx context.Context) (*toolchain.Toolchain, error) {
	if s.tc != nil {
		return s.tc, nil
	}
	tc, err := s.ensure(ctx)
	if err != nil {
		return nil, err
	}
	s.tc = tc
	return tc, nil
}

// progress is the phase a preparation is in and the workflow it is in it
// for, which an interrupted preparation's error names.
type progress struct {
	phase, workflow string
}

// enter records the phase the preparation is in for w. Once ctx is
// cancelled the phase stays the one the interrupt came in: what runs after
// it only winds the preparation down (a batch whose compile was stopped
// still passes through its load step), and naming that step would send the
// user looking in the wrong place.
func (p *progress) enter(ctx context.Context, phase string, w *discovery.Workflow) {
	if ctx.Err() != nil {
		return
	}
	p.phase, p.workflow = phase, w.Manifest.Name
}

// interrupted returns the error of a preparation whose context was
// cancelled (SIGINT/SIGTERM), naming the phase it stopped in; nil while
// ctx is live.
func (p *progress) interrupted(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	if p.phase == "" {
		return Interrupted(ctx, PhasePrepare, "")
	}
	ce := Interrupted(ctx, p.phase, "workflow %s", p.workflow)
	ce.Details["workflow"] = p.workflow
	return ce
}

// warnings collects the soft problems of a preparation (tracked generated
// files, for example), each logged as it is found.
type warnings struct {
	log  hclog.Logger
	list []string
}

func (ws *warnings) add(format string, args ...any) {
	msg := sprintf(format, args...)
	ws.list = append(ws.list, msg)
	ws.log.Warn(msg)
}
