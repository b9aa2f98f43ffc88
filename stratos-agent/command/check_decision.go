package command

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/agentapi"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/manifest"
	"github.com/stratoscli/stratos/stratos-agent/decision"
)

// checkDecisionCommand is `stratos-agent check-decision`: the build's
// check of a workflow.yaml's decision section with the rules decisions
// use at run time (stratos-agent/decision), and with --reach the explicit
// build's check of its endpoint and model.
func checkDecisionCommand() *cli.Command {
	return &cli.Command{
		Name:      "check-decision",
		Usage:     "check the decision section of a workflow.yaml",
		ArgsUsage: "<workflow-dir>",
		Description: cliapp.Lines(
			"Checks the decision section of <workflow-dir>/workflow.yaml as a decision checks it at run",
			"time: its fields, the provider and model it names, and its baseUrl. With --reach it also",
			"checks, by the same rules, the endpoint the section selects (OLLAMA_HOST is read for",
			"Ollama) and the model on it: installed and able to answer (Ollama), or listed by the",
			"endpoint with the provider's key (OpenAI-compatible, Anthropic). No inference is asked for.",
			"Exit 0 when valid (or without a decision section), 1 with the problems listed (each names",
			"the file and the field) when not."),
		Flags:  []cli.Flag{cliapp.JSONFlag(), &cli.BoolFlag{Name: "reach", Usage: "also reach the endpoint and find the model"}},
		Action: checkDecision,
	}
}

func checkDecision(ctx context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 1, 1, "<workflow-dir> [--reach] [--json]"); err != nil {
		return err
	}
	dir, err := filepath.Abs(cmd.Args().First())
	if err != nil {
		return clierr.Usage(errcode.CodeUsage, "check-decision: %v", err)
	}
	file := filepath.Join(dir, manifest.FileName)
	m, problems := manifest.Load(dir)
	if len(problems) > 0 {
		return clierr.Usage(errcode.CodeUsage, "check-decision: %s: %s", file, problems[0].Message)
	}
	res := agentapi.ConfigValidation{Dir: dir, File: file, Valid: true, Problems: []agentapi.ConfigProblem{}}
	if section, ok := m.Sections["decision"]; ok {
		if err := checkSection(ctx, section, cmd.Bool("reach"), cmd.Root().ErrWriter); err != nil {
			res.Valid, res.Problems = false, []agentapi.ConfigProblem{decisionProblem(file, "decision", err)}
		}
	}
	if cmd.Bool("json") {
		if err := clierr.PrintJSON(cmd.Root().Writer, res); err != nil {
			return err
		}
	} else {
		for _, p := range res.Problems {
			fmt.Fprintln(cmd.Root().ErrWriter, p.String())
		}
		if res.Valid {
			fmt.Fprintf(cmd.Root().Writer, "%s: decision section is valid\n", file)
		}
	}
	if !res.Valid {
		return cliapp.Silent(clierr.ExitFailed)
	}
	return nil
}

// reachTimeout bounds the explicit build's reach of a decision endpoint:
// a few requests that answer from an inventory, never an inference.
const reachTimeout = 30 * time.Second

// checkSection checks the section, then with reach its endpoint and
// model.
func checkSection(ctx context.Context, section any, reach bool, stderr io.Writer) error {
	raw, err := json.Marshal(section)
	if err != nil {
		return err
	}
	cfg, err := decision.CheckSection("decision", raw)
	if err != nil || !reach {
		return err
	}
	a := &decision.Asker{HTTP: &http.Client{}, Getenv: os.Getenv, Catalog: decision.SiblingCatalog(stderr)}
	ctx, cancel := context.WithTimeout(ctx, reachTimeout)
	defer cancel()
	return a.CheckReach(ctx, cfg)
}

// decisionProblem is a decision error as a problem of the layer
// ("decision" for workflow.yaml's section, "overrides.decision"): the
// field it names ("decision.baseUrl"), the model when the model is
// unavailable, else the layer.
func decisionProblem(file, layer string, err error) agentapi.ConfigProblem {
	path := layer
	var e *agentproto.Error
	if errors.As(err, &e) {
		switch field, _ := e.Details["field"].(string); {
		case strings.HasPrefix(field, layer+"."):
			path = field
		case field != "":
			path = layer + "." + field
		case e.Code == agentproto.CodeDecisionModelUnavailable:
			path = layer + ".model"
		}
	}
	return agentapi.ConfigProblem{File: file, Path: path, Message: strings.TrimPrefix(err.Error(), path+": ")}
}
