package host

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/manifest"
	"github.com/stratoscli/stratos/shared/mcpclient"
	"github.com/stratoscli/stratos/stratos-agent/decision"
)

// sampler answers the sampling requests of the direct clients whose
// server is declared with sampling: decision: a model call through the
// Decision primitive's backends, with the workflow's decision
// configuration and the decisions' admission pool.
type sampler struct {
	asker *decision.Asker
	// testCase is the test case the host's run is (nil outside one): a
	// case that allows no real harness allows no model call either.
	testCase *agentproto.TestCase
}

// sampleHandler is the client's sampling handler, with the decision
// configuration the SDK sent (nil: workflow.yaml's section).
func (d *directClients) sampleHandler(c *directClient, p agentproto.MCPConnectParams) mcpclient.SampleFunc {
	layers := func() ([]decision.Layer, error) {
		if p.Decision == nil {
			l, err := workflowDecision(p.Workflow.Dir)
			return []decision.Layer{l}, err
		}
		return []decision.Layer{
			{Name: filepath.Join(p.Workflow.Dir, manifest.FileName) + " decision", Raw: p.Decision.YAML},
			{Name: "overrides.decision", Raw: p.Decision.Overrides},
		}, nil
	}
	return func(ctx context.Context, r mcpclient.SamplingRequest) (mcpclient.SamplingReply, error) {
		return d.sample(ctx, c, layers, r)
	}
}

// sample asks the decision's model. The request ends with the server's
// request or the client; its usage is a usage event of the client's
// execution, as a decision's; a failure goes to stderr in full, and to
// the server as its code.
func (d *directClients) sample(ctx context.Context, c *directClient, layers func() ([]decision.Layer, error), r mcpclient.SamplingRequest) (mcpclient.SamplingReply, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(c.ctx, cancel)
	defer stop()
	reply, err := d.chat(ctx, c, layers, r)
	if err != nil {
		fmt.Fprintf(d.stderr, "stratos: MCP server %q: sampling failed: %v\n", c.server, err)
		// The server learns that the call failed and its code, not the
		// workflow's endpoint, model or test case.
		return mcpclient.SamplingReply{}, fmt.Errorf("the client's model call failed (%s)", agentproto.CodeOf(err))
	}
	return mcpclient.SamplingReply{Text: reply.Text, Model: reply.Model, StopReason: reply.StopReason}, nil
}

func (d *directClients) chat(ctx context.Context, c *directClient, layers func() ([]decision.Layer, error), r mcpclient.SamplingRequest) (*decision.ChatReply, error) {
	ls, err := layers()
	if err != nil {
		return nil, err
	}
	req := decision.ChatRequest{System: r.System, MaxTokens: r.MaxTokens, Layers: ls}
	for _, m := range r.Messages {
		req.Messages = append(req.Messages, decision.ChatMessage{Role: m.Role, Text: m.Text})
	}
	if err := d.sampling.refuseReal(req, c.server); err != nil {
		return nil, err
	}
	emit := func(details eventapi.Details) {
		e := eventapi.New(details)
		e.ExecutionID, e.IDs.MCPClientID = c.executionID, c.id
		d.record(e)
	}
	return d.sampling.asker.Chat(ctx, req, emit)
}

// refuseReal refuses a model call in a test case that allows none.
func (s sampler) refuseReal(req decision.ChatRequest, server string) error {
	if s.testCase == nil || s.testCase.AllowRealHarness {
		return nil
	}
	cfg, err := decision.Resolve(req.Layers...)
	if err != nil || cfg.Provider == decision.ProviderTest {
		return nil
	}
	return agentproto.Errorf(agentproto.CodeDecisionConfiguration,
		"test case %s: MCP server %q asked for sampling, which would ask a model (provider %q) the case does not allow: set allowRealHarness: true on the case",
		s.testCase, server, cfg.Provider).WithDetails(map[string]any{"testCase": s.testCase.Name, "server": server, "provider": cfg.Provider})
}

// workflowDecision is the workflow.yaml's decision section as a
// decision configuration layer (empty when it has none), for a client
// whose SDK sent none.
func workflowDecision(dir string) (decision.Layer, error) {
	name := filepath.Join(dir, manifest.FileName) + " decision"
	m, problems := manifest.Load(dir)
	if len(problems) > 0 {
		return decision.Layer{}, agentproto.Errorf(agentproto.CodeDecisionConfiguration, "%s", problems[0].Message)
	}
	section := m.Sections["decision"]
	if section == nil {
		return decision.Layer{Name: name}, nil
	}
	raw, err := json.Marshal(section)
	if err != nil {
		return decision.Layer{}, agentproto.Errorf(agentproto.CodeDecisionConfiguration, "%s: %v", name, err)
	}
	return decision.Layer{Name: name, Raw: raw}, nil
}
