package buildapi

import "github.com/stratoscli/stratos/shared/manifest"

// Prepared is the JSON result of `stratos-build prepare <workflow> --json`:
// the workflow is built and its compiled entry is where it says.
type Prepared struct {
	Name          string            `json:"name"`
	Dir           string            `json:"dir"`
	Root          string            `json:"root"`
	RootDir       string            `json:"rootDir"`
	Status        string            `json:"status"`
	CompiledEntry string            `json:"compiledEntry"` // absolute
	Manifest      manifest.Manifest `json:"manifest"`
	Warnings      []string          `json:"warnings"`
}
