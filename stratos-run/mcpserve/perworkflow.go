package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// wfToolPrefix starts the name of a workflow's own tool (--tools-per-workflow).
const wfToolPrefix = "wf_"

// syncWorkflowTools makes the wf_<name> tools the built workflows: a tool
// for each built workflow (its input schema is the workflow's), none for the
// others. Adding and removing tools sends notifications/tools/list_changed
// to the connected clients. A workflow that cannot be listed or described
// keeps its tool as it was; errors go to stderr.
func (s *Server) syncWorkflowTools(ctx context.Context) {
	l, err := s.st.list(ctx)
	if err != nil {
		fmt.Fprintf(s.opts.Stderr, "stratos mcp serve: list workflows for their tools: %v\n", err)
		return
	}
	want := map[string]Workflow{}
	for _, w := range l.Workflows {
		if w.Status == "built" {
			want[wfToolPrefix+w.Name] = w
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var gone []string
	for name := range s.wfTools {
		if _, ok := want[name]; !ok {
			gone = append(gone, name)
			delete(s.wfTools, name)
		}
	}
	sort.Strings(gone)
	if len(gone) > 0 {
		s.mcp.RemoveTools(gone...)
	}
	for name, w := range want {
		if s.wfTools[name] {
			continue
		}
		if err := s.addWorkflowTool(ctx, name, w); err != nil {
			fmt.Fprintf(s.opts.Stderr, "stratos mcp serve: tool %s: %v\n", name, err)
			continue
		}
		s.wfTools[name] = true
	}
}

// addWorkflowTool offers the workflow as a tool whose arguments are its
// input; calling it is run_workflow without overrides.
func (s *Server) addWorkflowTool(ctx context.Context, tool string, w Workflow) error {
	d, err := s.st.describe(ctx, w.Name)
	if err != nil {
		return err
	}
	out, err := json.Marshal(d.Output)
	if err != nil {
		return err
	}
	t := &mcp.Tool{Name: tool, Description: d.ShortDescription, InputSchema: d.Input,
		OutputSchema: json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"executionId":{"type":"string"},"workflow":{"type":"string"},"output":%s},"required":["executionId","workflow","output"]}`, out))}
	s.mcp.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var input map[string]any
		if len(req.Params.Arguments) > 0 {
			if err := json.Unmarshal(req.Params.Arguments, &input); err != nil {
				return errorResult(errorf("the arguments are not a JSON object: %v", err)), nil
			}
		}
		res, err := s.runWorkflow(ctx, req, RunInput{Name: w.Name, Input: input})
		if err != nil {
			return errorResult(err), nil
		}
		return structured(res)
	})
	return nil
}
