// Package harnessdocs holds the checks that keep what is written about
// the harnesses in step with their registrations (stratos-agent's package
// harnesses): the provider mapping's packaged copy of their selection
// rules, their documentation pages, and the harnesses `stratos-models
// candidates` names in its usage.
package harnessdocs
