package importscan

import (
	"reflect"
	"testing"
)

func TestSpecifiers(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want []string
	}{
		{"default import", `import a from "../.generated/a.js";`, []string{"../.generated/a.js"}},
		{"named and type imports", "import { x } from './x.js'\nimport type { T } from \"./t.js\"", []string{"./x.js", "./t.js"}},
		{"side effect", `import "./setup.js";`, []string{"./setup.js"}},
		{"dynamic", `const m = await import("../.generated/b.js");`, []string{"../.generated/b.js"}},
		{"re-export", `export * from "./all.js"; export { y } from './y.js';`, []string{"./all.js", "./y.js"}},
		{"require", `const z = require('zod');`, []string{"zod"}},
		{"line comment", "// import a from '../.generated/a.js'\nimport b from './b.js'", []string{"./b.js"}},
		{"block comment", "/* import a from '../.generated/a.js' */ import b from './b.js'", []string{"./b.js"}},
		{"string mentioning import", `const s = 'import a from "../.generated/a.js"';`, nil},
		{"template mentioning import", "const s = `from \"x.js\" ${ f(\"y\") }`; import c from './c.js'", []string{"./c.js"}},
		{"property named import", `obj.import("x.js"); x.from("y.js")`, nil},
		{"multiline import", "import {\n  a,\n  b,\n} from\n  \"./ab.js\";", []string{"./ab.js"}},
		{"unterminated comment", "import a from './a.js' /* never closed", []string{"./a.js"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Specifiers(c.src); !reflect.DeepEqual(got, c.want) {
				t.Errorf("Specifiers(%q) = %q, want %q", c.src, got, c.want)
			}
		})
	}
}

func TestWorkflowReference(t *testing.T) {
	cases := []struct {
		file, spec string
		want       string
		ok         bool
	}{
		{"parent/workflow.ts", "../.generated/child.js", "child", true},
		{"parent/lib/helper.ts", "../../.generated/child-two.js", "child-two", true},
		{"parent/lib/helper.ts", "../.generated/child.js", "", false}, // resolves to parent/.generated
		{"parent/workflow.ts", "./.generated/child.js", "", false},
		{"parent/workflow.ts", "../.generated/Child.js", "", false},
		{"parent/workflow.ts", "../.generated/child.ts", "", false},
		{"parent/workflow.ts", "zod", "", false},
		{"parent/workflow.ts", "../.generated/sub/child.js", "", false},
	}
	for _, c := range cases {
		t.Run(c.file+" "+c.spec, func(t *testing.T) {
			got, ok := WorkflowReference(c.file, c.spec)
			if got != c.want || ok != c.ok {
				t.Errorf("WorkflowReference(%q, %q) = %q, %v; want %q, %v", c.file, c.spec, got, ok, c.want, c.ok)
			}
		})
	}
}

func TestSourceCandidates(t *testing.T) {
	cases := []struct {
		name, target string
		want         []string
	}{
		{"js names ts", "lib/fanout.js", []string{"lib/fanout.ts", "lib/fanout.tsx", "lib/fanout.d.ts"}},
		{"mjs names mts", "lib/a.mjs", []string{"lib/a.mts", "lib/a.d.mts"}},
		{"cjs names cts", "lib/a.cjs", []string{"lib/a.cts", "lib/a.d.cts"}},
		{"ts extension kept", "lib/a.ts", []string{"lib/a.ts"}},
		{"json kept", "lib/data.json", []string{"lib/data.json"}},
		{"extensionless", "lib/a", []string{"lib/a.ts", "lib/a.tsx", "lib/a.d.ts", "lib/a/index.ts", "lib/a/index.d.ts"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := SourceCandidates(c.target); !reflect.DeepEqual(got, c.want) {
				t.Errorf("SourceCandidates(%q) = %q, want %q", c.target, got, c.want)
			}
		})
	}
}

func TestIsRelative(t *testing.T) {
	for spec, want := range map[string]bool{"./a.js": true, "../lib/a.js": true, "zod": false, "/abs/a.js": false, ".hidden": false} {
		t.Run(spec, func(t *testing.T) {
			if got := IsRelative(spec); got != want {
				t.Errorf("IsRelative(%q) = %v, want %v", spec, got, want)
			}
		})
	}
}
