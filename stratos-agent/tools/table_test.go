package tools

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// Two made-up harnesses: the engine knows no harness of its own.
var (
	alpha = Declaration{Harness: "alpha", Removal: "names on argv",
		Tools: []Declared{Removable("read", "Read"), Removable("shell", "Bash"), AlwaysOn("edit", "patch"), Removable("Own", "Own")}}
	beta = Declaration{Harness: "beta", Removal: "permissions denied",
		Tools:    []Declared{Removable("read", "read"), Removable("edit", "edit"), Removable("write", "edit"), Removable("feat", "features.feat=false")},
		Together: []Pair{{A: "edit", B: "write", Why: "one permission governs both"}}}
)

func newTable(t *testing.T) *Table {
	t.Helper()
	tb, err := NewTable(alpha, beta)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func TestNewTableRefusesInconsistentDeclarations(t *testing.T) {
	for name, decls := range map[string][]Declaration{
		"harness twice":  {alpha, alpha},
		"no harness":     {{Tools: []Declared{Removable("x", "x")}}},
		"name twice":     {{Harness: "h", Tools: []Declared{Removable("x", "x"), Removable("x", "y")}}},
		"no native":      {{Harness: "h", Tools: []Declared{Removable("x")}}},
		"pair not there": {{Harness: "h", Tools: []Declared{Removable("x", "x")}, Together: []Pair{{A: "x", B: "y"}}}},
		"pair always on": {{Harness: "h", Tools: []Declared{Removable("x", "x"), AlwaysOn("y", "y")}, Together: []Pair{{A: "x", B: "y"}}}},
	} {
		if _, err := NewTable(decls...); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestTableMergesDeclarationsByName(t *testing.T) {
	tb := newTable(t)
	var names, canonical []string
	for _, tl := range tb.Tools() {
		names = append(names, tl.Name)
		if tl.Canonical() {
			canonical = append(canonical, tl.Name)
		}
	}
	if want := []string{"Own", "edit", "feat", "read", "shell", "write"}; !slices.Equal(names, want) {
		t.Errorf("names = %v, want %v", names, want)
	}
	if want := []string{"edit", "read"}; !slices.Equal(canonical, want) {
		t.Errorf("canonical = %v, want %v", canonical, want)
	}
	a := tb.Tools()
	a[0].In["alpha"] = Mapping{Native: []string{"Changed"}}
	if slices.Contains(tb.Tools()[0].In["alpha"].Native, "Changed") {
		t.Error("Tools returned shared state")
	}
	if _, err := tb.Harness("gamma"); err == nil || !strings.Contains(err.Error(), "known: alpha, beta") {
		t.Errorf("unknown harness: %v", err)
	}
}

func TestSelectionAgainstTheTable(t *testing.T) {
	tb := newTable(t)
	var ue *UnknownToolError
	if err := tb.Validate(Selection{DisallowedTools: []string{"bash"}}); !errors.As(err, &ue) || ue.Suggestion != "shell" {
		t.Errorf("native name: %v", err)
	}
	if err := tb.Validate(Selection{AllowedTools: []string{"FEAT"}}); !errors.As(err, &ue) || ue.Suggestion != "feat" {
		t.Errorf("override's feature: %v", err)
	}
	// Another harness's name is valid and ignored; always-on tools stay.
	got, err := tb.Natives("alpha", Selection{DisallowedTools: []string{"feat", "edit", "shell"}})
	if err != nil || !slices.Equal(got, []string{"Bash"}) {
		t.Errorf("alpha natives = %v, %v", got, err)
	}
	got, err = tb.Removed("beta", Selection{AllowedTools: []string{"read"}})
	if err != nil || !slices.Equal(got, []string{"edit", "feat", "write"}) {
		t.Errorf("beta removed = %v, %v", got, err)
	}
	var pe *PairedToolsError
	_, err = tb.Natives("beta", Selection{DisallowedTools: []string{"write"}})
	if !errors.As(err, &pe) || !errors.Is(err, ErrInvalidSelection) || pe.Removed != "write" || pe.Kept != "edit" ||
		err.Error() != "beta: write is removed but edit is kept; one permission governs both, so keep or remove edit and write together" {
		t.Errorf("split pair: %v", err)
	}
}

func TestListUsesTheDeclarations(t *testing.T) {
	l := newTable(t).List("beta", "alpha")
	if len(l.Harnesses) != 2 || l.Harnesses[0].Harness != "beta" || l.Harnesses[1].Removal != "names on argv" {
		t.Fatalf("listing = %+v", l)
	}
	if got := l.Harnesses[1].AlwaysOn; len(got) != 1 || got[0].Name != "edit" || !got[0].Canonical {
		t.Errorf("alpha always on = %+v", got)
	}
	for _, lt := range l.Harnesses[0].Tools {
		if lt.Name == "feat" && !slices.Equal(lt.Native, []string{"features.feat=false"}) {
			t.Errorf("beta feat = %+v", lt)
		}
	}
}
