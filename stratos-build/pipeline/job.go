package pipeline

import (
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/sdk"
)

// job is one workflow on its way through the stages that build it: what
// the prepare stage staged (its entrypoint and staging directory), then
// what the compile and load stages found. A workflow built alone is one
// job; a batch is many.
type job struct {
	w     *discovery.Workflow
	entry string   // the source entrypoint
	out   *staging // where its dist/ is assembled
	// closure is what a batch compiles of it: its sources, relative to
	// the root.
	closure []string
	def     *sdk.Definition
	// kept is the build record whose definition stands for the job's (see
	// kept.go): its definition is not loaded.
	kept   *freshness.Record
	fail   *Result
	result *Result // a batch's solo job's, once recorded (nil if interrupted)
}

// solo reports whether j requires no other workflow: a batch records it
// as soon as its definition loads (see finisher).
func (j *job) solo() bool { return len(j.w.Sources.References) == 0 }

// touches reports whether j's closure holds one of files (root-relative).
func (j *job) touches(files map[string]bool) bool {
	for _, f := range j.closure {
		if files[f] {
			return true
		}
	}
	return false
}

// failure removes j's staging directory and returns its failure, with the
// staging directory's path in its diagnostics replaced by dist/'s.
func (j *job) failure() *Result {
	j.out.discard()
	return j.out.asDist(j.fail)
}
