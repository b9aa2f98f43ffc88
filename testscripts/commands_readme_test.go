package testscripts

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// commandsReadme documents every custom script command (as cmd/go's
// testdata/script/README does); the doc comments of the Test functions
// may describe their own, but this file is the reference.
const commandsReadme = "testdata/README"

// TestScriptCommandsAreDocumented fails when a command some function of
// this package registers in a Params.Cmds is missing from
// testdata/README, when the README has an entry for a command nothing
// registers, or when an entry does not name a function that registers its
// command.
func TestScriptCommandsAreDocumented(t *testing.T) {
	registered, err := registeredCommands(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(registered) == 0 {
		t.Fatal("found no registered commands: the parser no longer recognises how tests register them")
	}
	data, err := os.ReadFile(commandsReadme)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range readmeProblems(registered, readmeEntries(string(data))) {
		t.Error(p)
	}
}

// The check names a command missing from the README, an entry without a
// registration and a registering function an entry does not name.
func TestReadmeProblemsNamesEveryGap(t *testing.T) {
	registered := map[string][]string{"lastrun": {"TestRun", "TestRuns"}, "waitfile": {"TestRun"}}
	entries := readmeEntries("intro text\n\nlastrun\n\tSets $RUN.\n\tRegistered by TestRun.\n\nwaitgone <path>\n\tRegistered by TestRun.\n")
	got := strings.Join(readmeProblems(registered, entries), "\n")
	for _, want := range []string{
		`waitfile (registered by TestRun) has no entry in testdata/README`,
		`testdata/README documents waitgone, which nothing registers`,
		`testdata/README's entry for lastrun does not name TestRuns, which registers it`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
}

// registeredCommands maps each command name registered in the *_test.go
// files of dir (p.Cmds = map[...]{"name": f, ...} or p.Cmds["name"] = f)
// to the functions that register it, in file order.
func registeredCommands(dir string) (map[string][]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	add := func(name, fn string) {
		if !slices.Contains(out[name], fn) {
			out[name] = append(out[name], fn)
		}
	}
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			return nil, err
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				as, ok := n.(*ast.AssignStmt)
				if !ok || len(as.Lhs) != len(as.Rhs) {
					return true
				}
				for i, lhs := range as.Lhs {
					switch x := lhs.(type) {
					case *ast.SelectorExpr: // p.Cmds = map[...]{...}
						if lit, ok := as.Rhs[i].(*ast.CompositeLit); ok && x.Sel.Name == "Cmds" {
							for _, e := range lit.Elts {
								if kv, ok := e.(*ast.KeyValueExpr); ok {
									if name, ok := stringLit(kv.Key); ok {
										add(name, fd.Name.Name)
									}
								}
							}
						}
					case *ast.IndexExpr: // p.Cmds["name"] = f
						if sel, ok := x.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "Cmds" {
							if name, ok := stringLit(x.Index); ok {
								add(name, fd.Name.Name)
							}
						}
					}
				}
				return true
			})
		}
	}
	return out, nil
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// readmeEntries maps each command the README documents to the text of its
// entry. An entry is one or more usage lines at the margin, the first word
// of each naming a command, followed by tab-indented lines that belong to
// every command of those usage lines. Margin paragraphs not followed by an
// indented line (the introduction) are no entry.
func readmeEntries(text string) map[string]string {
	entries := map[string]string{}
	var block []string // the commands of the usage lines being read
	var usage []string
	indented := false
	for _, l := range strings.Split(text, "\n") {
		switch {
		case l == "":
			usage = nil
		case strings.HasPrefix(l, "\t"):
			if usage != nil {
				block, usage = usage, nil
				for _, u := range block {
					entries[strings.Fields(u)[0]] += u + "\n"
				}
			}
			for _, u := range block {
				entries[strings.Fields(u)[0]] += l + "\n"
			}
			indented = true
		default:
			if indented || usage == nil {
				usage, indented = nil, false
			}
			usage = append(usage, l)
		}
	}
	return entries
}

// readmeProblems compares the registered commands with the README's
// entries, in name order.
func readmeProblems(registered map[string][]string, entries map[string]string) []string {
	var problems []string
	names := make([]string, 0, len(registered)+len(entries))
	for n := range registered {
		names = append(names, n)
	}
	for n := range entries {
		if _, ok := registered[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		fns, isRegistered := registered[n]
		entry, isDocumented := entries[n]
		switch {
		case !isDocumented:
			problems = append(problems, n+" (registered by "+strings.Join(fns, ", ")+") has no entry in "+commandsReadme)
		case !isRegistered:
			problems = append(problems, commandsReadme+" documents "+n+", which nothing registers")
		default:
			for _, fn := range fns {
				if !strings.Contains(entry, fn) {
					problems = append(problems, commandsReadme+"'s entry for "+n+" does not name "+fn+", which registers it")
				}
			}
		}
	}
	return problems
}
