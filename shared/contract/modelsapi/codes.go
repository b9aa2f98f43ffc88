// Package modelsapi is the contract of stratos-models (stratos models, and
// the agent host's catalog client): its error codes and the JSON results
// of `candidates` and `mapping`.
package modelsapi

import "github.com/stratoscli/stratos/shared/contract/errcode"

// Error codes of stratos-models.
const (
	CodeUnknownModel               = "unknown_model"
	CodeUnknownProvider            = "unknown_provider"
	CodeNoMapping                  = "no_mapping"
	CodeNoModels                   = "no_models"
	CodeUnknownHarness             = "unknown_harness"
	CodeHarnessRequired            = "harness_required"
	CodeHarnessProviderUnsupported = "harness_provider_unsupported"
	CodeInvalidBackend             = "invalid_backend"
	CodeInvalidOllamaName          = "invalid_ollama_name"
	CodeNoCandidates               = "no_candidates"
	CodeCatalogInvalid             = "catalog_invalid"
	CodeMappingInvalid             = "mapping_invalid"
	CodeWriteFailed                = "write_failed"
	CodeSourceInvalid              = "source_invalid"
	CodeGenerateFailed             = "generate_failed"
	CodeLinksUnreadable            = "links_unreadable"
	CodePreviousUnreadable         = "previous_unreadable"
	CodePreviousInvalid            = "previous_invalid"
	CodeHarnessRulesInvalid        = "harness_rules_invalid"
)

// Codes describes the error codes of stratos-models.
func Codes() []errcode.Code {
	return []errcode.Code{
		errcode.Usage(CodeUnknownModel, "no canonical model of that ID in the catalog"),
		errcode.Usage(CodeUnknownProvider, "no provider of that ID in the catalog"),
		errcode.Failed(CodeNoMapping, "the model has no native ID at that provider"),
		errcode.Usage(CodeNoModels, "`candidates`: no model given"),
		errcode.Usage(CodeUnknownHarness, "no harness of that name"),
		errcode.Usage(CodeHarnessRequired, "the provider (e.g. ollama) needs an explicit harness that supports it"),
		errcode.Usage(CodeHarnessProviderUnsupported, "the harness does not support the provider"),
		errcode.Usage(CodeInvalidBackend, "`--backend` is not `<harness>=<provider>`, or names a provider the harness cannot use as its backend"),
		errcode.Usage(CodeInvalidOllamaName, "an Ollama model name is not `<name>[:<tag>]`"),
		errcode.Failed(CodeNoCandidates, "no usable harness/model/provider combination; `details` carries the exclusions"),
		errcode.Failed(CodeCatalogInvalid, "the embedded model catalog cannot be decoded (a bug)"),
		errcode.Usage(CodeHarnessRulesInvalid, "`candidates --harness-rules -`: the harness rules on stdin cannot be read or decoded, or contradict each other"),
		errcode.Failed(CodeMappingInvalid, "the embedded provider mapping cannot be decoded (a bug)"),
		errcode.Failed(CodeWriteFailed, "the output cannot be written"),
		errcode.Usage(CodeSourceInvalid, "`generate --source` is neither a Models.dev checkout nor a safe `.tar.gz` of one"),
		errcode.Failed(CodeGenerateFailed, "generating the catalog from the source failed"),
		errcode.Usage(CodeLinksUnreadable, "`generate`: the links file cannot be read"),
		errcode.Usage(CodePreviousUnreadable, "`generate`: the previous catalog cannot be read"),
		errcode.Usage(CodePreviousInvalid, "`generate`: the previous catalog is not a valid catalog"),
	}
}

// Tool is the name of the binary this package is the contract of.
const Tool = "stratos-models"
