package manifest

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse checks workflow.yaml validation on any bytes: parsing is
// deterministic; a manifest without problems holds only valid values (a
// name of the pattern, one-paragraph descriptions within their limits, a
// clean entrypoint inside the workflow directory, owned sections only);
// every problem carries a known code, the file and the field it names; and
// a field with a problem is never filled in. The seeds are the example
// project's manifests (testdata/fuzz/FuzzParse holds more from the
// acceptance tests).
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", ".stratos", "workflows", "*", FileName))
	if len(files) == 0 {
		f.Fatal("no example manifests found as seeds")
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("name: a\nshortDescription: s\nlongDescription: L\nentrypoint: src/./x.ts\nmcp:\n  servers: {}\nbudget: {usd: 1}\n"))
	f.Add([]byte("name: a\nname: b\nshortDescription: &x s\nlongDescription: *x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		const dir, file = "/r/wf", "/r/wf/workflow.yaml"
		m, problems := Parse(dir, file, data)
		m2, problems2 := Parse(dir, file, data)
		// Sections are compared as printed: they may hold NaN (.nan), which
		// is unequal to itself.
		s1, s2 := fmt.Sprintf("%#v", m.Sections), fmt.Sprintf("%#v", m2.Sections)
		sections := m.Sections
		m.Sections, m2.Sections = nil, nil
		if s1 != s2 || !reflect.DeepEqual(m, m2) || !reflect.DeepEqual(problems, problems2) {
			t.Fatalf("two parses differ:\n%+v %+v\n%+v %+v", m, problems, m2, problems2)
		}
		m.Sections = sections
		faulty := map[string]bool{}
		for _, p := range problems {
			checkProblem(t, p, dir, file)
			faulty[p.Field] = true
		}
		if len(problems) == 0 {
			checkValid(t, m)
		}
		for field, value := range map[string]string{"name": m.Name, "shortDescription": m.ShortDescription, "longDescription": m.LongDescription} {
			if faulty[field] && value != "" {
				t.Fatalf("field %s has a problem but holds %q", field, value)
			}
		}
		if faulty["entrypoint"] && m.Entrypoint != DefaultEntrypoint {
			t.Fatalf("entrypoint has a problem but is %q", m.Entrypoint)
		}
	})
}

var problemCodes = []string{CodeUnreadable, CodeInvalidYAML, CodeRequired, CodeType, CodeBlank, CodeTooLong,
	CodeMultiline, CodeNameInvalid, CodeEntrypoint, CodeUnknownField, CodeDuplicateName}

func checkProblem(t *testing.T, p Problem, dir, file string) {
	t.Helper()
	if !slices.Contains(problemCodes, p.Code) {
		t.Fatalf("problem with unknown code: %+v", p)
	}
	if p.Dir != dir || p.Manifest != file || !strings.HasPrefix(p.Message, file+": ") {
		t.Fatalf("problem does not name its file: %+v", p)
	}
	if (p.Code == CodeTooLong) != (p.Actual != nil && p.Max != nil) {
		t.Fatalf("length problem without its lengths, or lengths without one: %+v", p)
	}
	if p.Code == CodeTooLong && *p.Actual <= *p.Max {
		t.Fatalf("too long at %d of %d: %+v", *p.Actual, *p.Max, p)
	}
}

func checkValid(t *testing.T, m Manifest) {
	t.Helper()
	if !namePattern().MatchString(m.Name) {
		t.Fatalf("valid manifest with name %q", m.Name)
	}
	for _, d := range []struct {
		text string
		max  int
	}{{m.ShortDescription, MaxShortDescriptionLength}, {m.LongDescription, MaxLongDescriptionLength}} {
		if strings.TrimSpace(d.text) == "" || utf8.RuneCountInString(d.text) > d.max {
			t.Fatalf("valid manifest with description %q (at most %d code points)", d.text, d.max)
		}
	}
	if strings.ContainsAny(m.ShortDescription, "\r\n\u2028\u2029") {
		t.Fatalf("valid manifest with a multi-line short description %q", m.ShortDescription)
	}
	e := m.Entrypoint
	if e != path.Clean(e) || !filepath.IsLocal(e) || !strings.HasSuffix(e, ".ts") || strings.HasSuffix(e, ".d.ts") || strings.Contains(e, `\`) {
		t.Fatalf("valid manifest with entrypoint %q", e)
	}
	if top, _, _ := strings.Cut(e, "/"); top == "dist" || top == "generated" || top == "node_modules" {
		t.Fatalf("valid manifest with entrypoint %q in a build directory", e)
	}
	for key := range m.Sections {
		if !ownedSections[key] {
			t.Fatalf("valid manifest with section %q", key)
		}
	}
}
