package proxy

import (
	"encoding/json"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/journalapi"
	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// executeEntry is the journal entry of a finished execute, as the SDK
// would have written it: the proxy signals it to the run's workflow as soon
// as the execute's workflow answers, without waiting for the SDK's own
// line (a crash of the code's worker before the signal loses nothing
// either: the next attempt attaches to the finished execute workflow).
func executeEntry(at time.Time, req engine.ExecuteRequest, reply engine.ExecuteReply) (journalapi.Entry, error) {
	var res agentproto.ExecuteResult
	if err := json.Unmarshal(reply.Result, &res); err != nil {
		return journalapi.Entry{}, err
	}
	if res.Value == nil && res.Text == nil {
		empty := ""
		res.Text = &empty
	}
	p := req.Place
	return journalapi.Entry{
		V: journalapi.Version, Kind: journalapi.KindExecute, At: at.UTC(), Path: p.Path, InputSHA256: p.InputSHA256,
		Execute: &journalapi.Execute{
			ConfigID: p.ConfigID, Label: p.Label, Agent: p.Agent, Call: req.Call,
			Text: res.Text, Value: res.Value, Usage: res.Usage, Session: res.Session,
		},
	}, nil
}
