package decision

import (
	"context"
	"io"

	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/shared/toolcall"
	"github.com/stratoscli/stratos/stratos-agent/adapter/catalog"
)

// SiblingCatalog asks the model catalog beside this binary
// (`stratos-models resolve --json`, as agents' models are resolved) for a
// hosted decision model's native ID and price; stderr gets its
// diagnostics.
func SiblingCatalog(stderr io.Writer) Catalog {
	return func(ctx context.Context, model, provider string) (CatalogModel, error) {
		var res struct {
			NativeID string           `json:"nativeId"`
			Cost     *modelsapi.Price `json:"cost"`
		}
		args := []string{"resolve", model, "--provider", provider, "--json"}
		if err := toolcall.Run(ctx, toolcall.Call{Tool: catalog.Tool, Args: args, Stderr: stderr}, &res); err != nil {
			return CatalogModel{}, err
		}
		return CatalogModel{NativeID: res.NativeID, Price: res.Cost}, nil
	}
}
