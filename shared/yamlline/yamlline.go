// Package yamlline corrects the line numbers of gopkg.in/yaml.v3's syntax
// errors. yaml.v3 numbers lines from 1 in scanner errors but from 0 in
// parser errors ("did not find expected key" and the like), and leaves the
// line out when that 0-based number is 0, so a parser error named the line
// before the one at fault, and none on the first line. Every reader of a
// user's YAML file passes its parse error through Correct, so that the line
// an error names is the line to look at.
package yamlline

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
)

// parserProblems are the problems yaml.v3's parser (not its scanner)
// reports, whose line is 0-based. Scanner problems never share these
// texts, so the text alone tells which numbering an error used.
var parserProblems = []string{
	"did not find expected <stream-start>",
	"did not find expected <document start>",
	"did not find expected node content",
	"did not find expected key",
	"did not find expected '-' indicator",
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found duplicate %TAG directive",
	"found undefined tag handle",
}

var syntaxError = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// Correct returns err with its line counted from 1 when it is a yaml.v3
// parser error, and err itself otherwise (nil, scanner errors, type
// errors, which already count from 1).
//
// The line of a parser error is where yaml.v3 says it is: the start of
// the collection being parsed when the fault is inside one (a mapping
// entry without its '-' in a sequence names the sequence's first line),
// otherwise the line of the fault.
func Correct(err error) error {
	if err == nil {
		return nil
	}
	m := syntaxError.FindStringSubmatch(err.Error())
	if m == nil || !isParserProblem(m[2]) {
		return err
	}
	line := 0
	if m[1] != "" {
		line, _ = strconv.Atoi(m[1])
	}
	return errors.New("yaml: line " + strconv.Itoa(line+1) + ": " + m[2])
}

func isParserProblem(msg string) bool {
	for _, p := range parserProblems {
		if msg == p || strings.HasPrefix(msg, p+" ") {
			return true
		}
	}
	return false
}
