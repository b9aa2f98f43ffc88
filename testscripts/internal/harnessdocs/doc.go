// Package harnessdocs holds the checks that keep what is written about
// the harnesses in step with their registrations (stratos-agent's package
// harnesses): the provider mapping's packaged copy of their selection
// rules, and their documentation pages.
package harnessdocs
