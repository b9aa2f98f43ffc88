package command

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/agentapi"
	"github.com/stratoscli/stratos/shared/mcpauth"
)

// serverStatus is what `stratos mcp status` tells about one login: never
// a token.
type serverStatus struct {
	Resource      string     `json:"resource"`
	ClientID      string     `json:"clientId,omitempty"`
	Authenticated bool       `json:"authenticated"`
	ExpiresAt     *time.Time `json:"expiresAt,omitempty"`
	// ExpiresIn is in whole seconds, negative once expired; absent for a
	// token without expiry.
	ExpiresIn   *int64 `json:"expiresIn,omitempty"`
	Refreshable bool   `json:"refreshable"`
}

func statusOf(r mcpauth.Record, now time.Time) serverStatus {
	s := serverStatus{Resource: r.Resource, ClientID: r.ClientID, Refreshable: r.RefreshToken != ""}
	s.Authenticated = r.AccessToken != "" && (r.Expiry.IsZero() || r.Expiry.After(now) || s.Refreshable)
	if !r.Expiry.IsZero() {
		at := r.Expiry.UTC()
		in := int64(r.Expiry.Sub(now) / time.Second)
		s.ExpiresAt, s.ExpiresIn = &at, &in
	}
	return s
}

func (s serverStatus) describe() string {
	if !s.Authenticated && s.ExpiresIn == nil {
		return "not logged in"
	}
	var parts []string
	switch {
	case s.ExpiresIn == nil:
		parts = append(parts, "logged in, the token does not expire")
	case *s.ExpiresIn <= 0:
		parts = append(parts, "token expired")
	default:
		parts = append(parts, "token expires in "+(time.Duration(*s.ExpiresIn)*time.Second).String())
	}
	if s.Refreshable {
		parts = append(parts, "refreshable")
	} else {
		parts = append(parts, "not refreshable")
	}
	if !s.Authenticated {
		parts = append(parts, "log in again")
	}
	return strings.Join(parts, ", ")
}

// statusListing is the JSON document of `stratos mcp status --json`.
type statusListing struct {
	Workflow string        `json:"workflow,omitempty"`
	Servers  []serverEntry `json:"servers"`
}

type serverEntry struct {
	Server string `json:"server,omitempty"`
	serverStatus
}

func mcpStatus(_ context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 0, 1, "[<workflow>] [--json]"); err != nil {
		return err
	}
	var listing statusListing
	var err error
	if cmd.Args().Len() == 0 {
		listing, err = storedStatus()
	} else {
		listing, err = workflowStatus(cmd)
	}
	if err != nil {
		return err
	}
	if cmd.Bool("json") {
		return clierr.PrintJSON(cmd.Root().Writer, listing)
	}
	var b strings.Builder
	for _, e := range listing.Servers {
		if e.Server != "" {
			fmt.Fprintf(&b, "%s (%s): %s\n", e.Server, e.Resource, e.describe())
		} else {
			fmt.Fprintf(&b, "%s: %s\n", e.Resource, e.describe())
		}
	}
	if len(listing.Servers) == 0 {
		if listing.Workflow != "" {
			fmt.Fprintf(&b, "workflow %s declares no MCP servers with oauth\n", listing.Workflow)
		} else {
			b.WriteString("no MCP logins stored\n")
		}
	}
	_, err = fmt.Fprint(cmd.Root().Writer, b.String())
	return err
}

func workflowStatus(cmd *cli.Command) (statusListing, error) {
	scope, err := workflowOAuth(cmd)
	if err != nil {
		return statusListing{}, err
	}
	out := statusListing{Workflow: scope.workflow, Servers: []serverEntry{}}
	now := time.Now()
	for _, t := range scope.targets {
		r, err := scope.store.Load(t.id)
		switch {
		case errors.Is(err, mcpauth.ErrNotFound):
			out.Servers = append(out.Servers, serverEntry{Server: t.server.Name, serverStatus: serverStatus{Resource: t.id.Resource}})
		case err != nil:
			return statusListing{}, clierr.New(agentapi.CodeMCPCredentialsError, "%v", err).Wrap(err)
		default:
			out.Servers = append(out.Servers, serverEntry{Server: t.server.Name, serverStatus: statusOf(r, now)})
		}
	}
	return out, nil
}

func storedStatus() (statusListing, error) {
	store, err := credentialStore()
	if err != nil {
		return statusListing{}, err
	}
	records, err := store.List()
	if err != nil {
		return statusListing{}, clierr.New(agentapi.CodeMCPCredentialsError, "%v", err).Wrap(err)
	}
	out := statusListing{Servers: []serverEntry{}}
	now := time.Now()
	for _, r := range records {
		out.Servers = append(out.Servers, serverEntry{serverStatus: statusOf(r, now)})
	}
	return out, nil
}
