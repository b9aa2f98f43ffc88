package eventgen

import (
	"fmt"
	"path/filepath"
)

// The generated files, relative to the repository's root.
const (
	SchemaPath = "docs/events.schema.json"
	SDKPath    = "shared/sdk/src/events.ts"
	PagePath   = "stratos-run/serve/app/events.d.ts"
	sourceDir  = "shared/contract/eventapi"
)

// Files returns every generated file's content by its path relative to
// root, the repository's root.
func Files(root string) (map[string][]byte, error) {
	docs, err := ReadDocs(filepath.Join(root, sourceDir))
	if err != nil {
		return nil, err
	}
	schema, err := Schema(docs)
	if err != nil {
		return nil, fmt.Errorf("the events JSON Schema: %w", err)
	}
	sdk, err := TypeScript(docs, "scripts/gen-docs")
	if err != nil {
		return nil, fmt.Errorf("the events TypeScript: %w", err)
	}
	return map[string][]byte{SchemaPath: schema, SDKPath: sdk, PagePath: sdk}, nil
}
