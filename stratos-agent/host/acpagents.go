package host

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/settings"
)

// acpAgent returns the program an agent's acp field stands for: given
// whole, or named in this machine's ~/.stratos/settings.json (acpAgents).
// The file is read when a name is used, so it is this machine's, also on
// a Temporal worker: where Qwen Code lives and which variable holds its
// key differ between machines, not between workflows.
func (h *Host) acpAgent(ref *agentproto.ACPRef, agent string) (*agentproto.ACPAgent, error) {
	if ref == nil {
		return nil, nil
	}
	if ref.Agent != nil {
		return ref.Agent, nil
	}
	path := settings.Path(filepath.Join(h.home, ".stratos"))
	s, err := settings.Load(path)
	if err != nil {
		return nil, agentproto.Errorf(agentproto.CodeConfiguration, "agent %q: acp names the ACP agent %q: %v", agent, ref.Name, err).Wrap(err)
	}
	a, ok := s.ACPAgents[ref.Name]
	if !ok {
		declared := "none"
		if len(s.ACPAgents) > 0 {
			names := make([]string, 0, len(s.ACPAgents))
			for n := range s.ACPAgents {
				names = append(names, n)
			}
			slices.Sort(names)
			declared = strings.Join(names, ", ")
		}
		return nil, agentproto.Errorf(agentproto.CodeConfiguration,
			"agent %q: acp names the ACP agent %q, which %s does not declare under acpAgents (declared: %s)", agent, ref.Name, path, declared).
			WithDetails(map[string]any{"field": "acp", "name": ref.Name, "file": path})
	}
	return &a, nil
}
