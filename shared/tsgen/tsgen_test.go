package tsgen

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

type base struct {
	ID string `json:"id"`
}

type extra struct {
	Note string `json:"note,omitempty"`
}

type inner struct {
	N int `json:"n"`
}

type choice struct{}

type outer struct {
	base
	*extra
	Inner   inner           `json:"inner"`
	Items   []inner         `json:"items,omitempty"`
	ByName  map[string]bool `json:"byName,omitzero"`
	Raw     json.RawMessage `json:"raw"`
	Action  string          `json:"action" ts:"\"a\" | \"b\""`
	Choice  choice          `json:"choice"`
	Ptr     *uint64         `json:"ptr,omitempty"`
	Skipped string          `json:"-"`
	hidden  string
}

var _ = outer{}.hidden

func declare(t *testing.T, w *Writer, types ...reflect.Type) string {
	t.Helper()
	for _, typ := range types {
		if err := w.Declare(typ); err != nil {
			t.Fatal(err)
		}
	}
	return string(w.Bytes())
}

func check(t *testing.T, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// A struct reads as encoding/json writes it, and the named structs it uses
// are declared after it, in the order they are first used.
func TestDeclareUsesJSONAndDeclaresWhatItUses(t *testing.T) {
	w := NewWriter(Options{
		Names:   map[reflect.Type]string{reflect.TypeFor[base](): "Base"},
		Aliases: map[reflect.Type]string{reflect.TypeFor[choice](): "string | number"},
	})
	check(t, declare(t, w, reflect.TypeFor[outer]()), `
export interface outer extends Base, Partial<extra> {
  inner: inner;
  items?: inner[];
  byName?: Record<string, boolean>;
  raw: unknown;
  action: "a" | "b";
  choice: string | number;
  ptr?: number;
}

export interface Base {
  id: string;
}

export interface extra {
  note?: string;
}

export interface inner {
  n: number;
}
`)
}

// Expected types are used by name and declared where the caller says; an
// alias declared in the file is used by its name, not inline.
func TestExpectKeepsTheCallersOrder(t *testing.T) {
	w := NewWriter(Options{Aliases: map[reflect.Type]string{reflect.TypeFor[choice](): "string | number"}})
	w.Expect(reflect.TypeFor[choice](), reflect.TypeFor[inner]())
	check(t, declare(t, w, reflect.TypeFor[outer](), reflect.TypeFor[choice](), reflect.TypeFor[inner]()), `
export interface outer extends base, Partial<extra> {
  inner: inner;
  items?: inner[];
  byName?: Record<string, boolean>;
  raw: unknown;
  action: "a" | "b";
  choice: choice;
  ptr?: number;
}

export interface base {
  id: string;
}

export interface extra {
  note?: string;
}

export type choice = string | number;

export interface inner {
  n: number;
}
`)
}

// Doc comments become /** */ blocks: one line inline, several as a block
// without trailing spaces, a "*/" in the text escaped.
func TestDeclareWritesDocComments(t *testing.T) {
	docs := Docs{
		types:  map[string]string{"inner": "Inner is a fixture."},
		fields: map[string]string{"inner.N": "N counts */ things.\n\nIt is never negative."},
	}
	w := NewWriter(Options{Docs: docs})
	check(t, declare(t, w, reflect.TypeFor[inner]()), `
/** Inner is a fixture. */
export interface inner {
  /**
   * N counts *\/ things.
   *
   * It is never negative.
   */
  n: number;
}
`)
}

func TestEmptyStructIsAnEmptyInterface(t *testing.T) {
	check(t, declare(t, NewWriter(Options{}), reflect.TypeFor[choice]()), "\nexport interface choice {}\n")
}

// A Go type without a JSON counterpart is an error that names the field.
func TestDeclareRefusesTypesWithoutTypeScript(t *testing.T) {
	for field, typ := range map[string]reflect.Type{
		"M": reflect.TypeFor[struct {
			M map[int]string `json:"m"`
		}](),
		"S": reflect.TypeFor[struct {
			S struct{} `json:"s"`
		}](),
		"C": reflect.TypeFor[struct {
			C chan int `json:"c"`
		}](),
	} {
		err := NewWriter(Options{}).Declare(typ)
		if err == nil || !strings.Contains(err.Error(), "."+field+": ") {
			t.Errorf("%s: got %v, want an error naming field %s", typ, err, field)
		}
	}
	if err := NewWriter(Options{}).Declare(reflect.TypeFor[string]()); err == nil {
		t.Error("declared string as an interface")
	}
}

// The earlier source's comment wins where two packages declare a name;
// test files are left out.
func TestReadDocs(t *testing.T) {
	d, err := ReadDocs(Source{Dir: "testdata/first", ImportPath: "first"}, Source{Dir: "testdata/second", ImportPath: "second"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ got, want string }{
		{d.Type("Shared"), "Shared is declared by both packages; this comment wins."},
		{d.Field("Shared", "Name"), "Name is first's field comment."},
		{d.Field("Shared", "Extra"), "Extra is second's alone."},
		{d.Type("OnlyFirst"), "OnlyFirst is first's alone."},
		{d.Type("OnlySecond"), "OnlySecond is second's alone."},
		{d.Type("InTest"), ""},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	if _, err := ReadDocs(Source{Dir: "testdata/none", ImportPath: "none"}); err == nil || !strings.Contains(err.Error(), "testdata/none") {
		t.Errorf("a directory without sources: %v", err)
	}
}

func TestStringUnion(t *testing.T) {
	for want, values := range map[string][]string{
		`"claude-code" | "test"`: {"claude-code", "test"},
		`"a\"b"`:                 {`a"b`},
		"never":                  nil,
	} {
		if got := StringUnion(values); got != want {
			t.Errorf("StringUnion(%q) = %s, want %s", values, got, want)
		}
	}
}
