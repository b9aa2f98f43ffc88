package pipeline

import (
	"fmt"
	"strings"

	"github.com/stratoscli/stratos/shared/discovery"
)

var sprintf = fmt.Sprintf

// findCycle returns a reference cycle reachable from w as names
// ("a", "b", "a"), or nil. References come from the static import scan.
func findCycle(root *discovery.Root, w *discovery.Workflow) []string {
	var path []string
	onPath := map[string]int{}
	done := map[string]bool{}
	var visit func(name string) []string
	visit = func(name string) []string {
		if i, ok := onPath[name]; ok {
			return append(append([]string{}, path[i:]...), name)
		}
		if done[name] {
			return nil
		}
		child, ok := root.Workflows[name]
		if !ok {
			return nil
		}
		onPath[name] = len(path)
		path = append(path, name)
		for _, ref := range child.Sources.References {
			if c := visit(ref); c != nil {
				return c
			}
		}
		path = path[:len(path)-1]
		delete(onPath, name)
		done[name] = true
		return nil
	}
	return visit(w.Manifest.Name)
}

// cycleDiagnostic names the cycle found from workflow name: one it is part
// of, or one among the workflows it requires.
func cycleDiagnostic(name string, c []string) Diagnostic {
	text := strings.Join(c, " → ")
	if c[0] != name {
		return message("workflow %s requires workflows that form a reference cycle: %s (recursive workflow invocation is not supported)", name, text)
	}
	return message("workflow %s is part of a reference cycle: %s (recursive workflow invocation is not supported)", name, text)
}

// dependents returns the names of the workflows of root that reference name,
// directly or through other workflows.
func dependents(root *discovery.Root, name string) []*discovery.Workflow {
	var out []*discovery.Workflow
	seen := map[string]bool{name: true}
	queue := []string{name}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, w := range root.Sorted() {
			if seen[w.Manifest.Name] {
				continue
			}
			for _, ref := range w.Sources.References {
				if ref == n {
					seen[w.Manifest.Name] = true
					out = append(out, w)
					queue = append(queue, w.Manifest.Name)
					break
				}
			}
		}
	}
	return out
}
