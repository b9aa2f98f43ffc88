package eventgen

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
)

func schema(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	docs, err := ReadDocs("..")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Schema(docs)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("the schema does not resolve: %v", err)
	}
	return r
}

func validate(r *jsonschema.Resolved, line []byte) error {
	var v any
	if err := json.Unmarshal(line, &v); err != nil {
		return err
	}
	return r.Validate(v)
}

// The published schema accepts what the vocabulary writes: the lines of
// real records (kept from version 0, read and written again as current
// ones).
func TestSchemaAcceptsTheVocabulary(t *testing.T) {
	r := schema(t)
	files, _ := filepath.Glob("../testdata/v0-*.jsonl")
	if len(files) == 0 {
		t.Fatal("no ../testdata/v0-*.jsonl")
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			e, err := eventapi.Decode(sc.Bytes())
			if err != nil {
				t.Fatalf("%s:%d: %v", file, n, err)
			}
			e.V = eventapi.Version
			line, _ := json.Marshal(e)
			if err := validate(r, line); err != nil {
				t.Errorf("%s:%d: %s: %v", file, n, line, err)
			}
		}
	}
}

// It refuses what Check refuses.
func TestSchemaRefuses(t *testing.T) {
	r := schema(t)
	for name, line := range map[string]string{
		"unknown kind":           `{"v":1,"type":"agent.teleported","timestamp":"t","executionId":"x"}`,
		"unknown details field":  `{"v":1,"type":"workflow.log","timestamp":"t","executionId":"x","details":{"message":"m","level":"info"}}`,
		"unknown envelope field": `{"v":1,"type":"workflow.log","timestamp":"t","executionId":"x","extra":1,"details":{"message":"m"}}`,
		"unknown id":             `{"v":1,"type":"workflow.log","timestamp":"t","executionId":"x","ids":{"spanId":"s"},"details":{"message":"m"}}`,
		"version 0":              `{"type":"workflow.log","timestamp":"t","executionId":"x","details":{"message":"m"}}`,
		"a status not allowed":   `{"v":1,"type":"agent.closed","timestamp":"t","executionId":"x","details":{"status":"exploded"}}`,
		"a string error":         `{"v":1,"type":"agent.closed","timestamp":"t","executionId":"x","details":{"status":"failed","error":"boom"}}`,
	} {
		if err := validate(r, []byte(line)); err == nil {
			t.Errorf("%s: %s passed the schema", name, line)
		}
		if err := eventapi.Check([]byte(line)); err == nil && name != "a status not allowed" {
			t.Errorf("%s: %s passed Check", name, line)
		}
	}
}

var update = flag.Bool("update", false, "rewrite the generated files")

// root is the repository's root, from this package's directory.
const root = "../../../.."

// TestCommittedFilesAreCurrent fails when a checked-in copy of the
// vocabulary's documents is not what the Go types generate: run
// scripts/gen-docs (then scripts/build-sdk for the SDK's dist) and commit.
func TestCommittedFilesAreCurrent(t *testing.T) {
	files, err := Files(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range slices.Sorted(maps.Keys(files)) {
		want := files[path]
		full := filepath.Join(root, path)
		if *update {
			if err := os.WriteFile(full, want, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(full)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: the Go types of shared/contract/eventapi changed; run scripts/gen-docs and scripts/build-sdk, and commit", path)
		}
	}
}
