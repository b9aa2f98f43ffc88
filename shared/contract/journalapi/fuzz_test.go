package journalapi

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// FuzzRead reads any bytes as a journal. It never panics; a journal it
// returns has a header, and entries that pass Check, are no header and
// never share a place; every line that is not blank is the header, an
// entry or a problem, and problems are in line order. What it returns,
// written again, reads again with no problem, as the same entries.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"failed-run.jsonl", "resumed-run.jsonl"} {
		lines := journalLines(f, name)
		good := journalOf(lines...)
		f.Add([]byte(good))
		// Torn: the last line cut off while being written.
		f.Add([]byte(good[:len(good)-len(lines[len(lines)-1])/2]))
		// Duplicates: each entry twice, the second time with another result.
		twice := []string{lines[0]}
		for _, l := range lines[1:] {
			twice = append(twice, l, strings.Replace(l, `"text":"`, `"text":"again `, 1))
		}
		f.Add([]byte(journalOf(twice...)))
		// Foreign versions: a newer header; an older and a newer entry.
		f.Add([]byte(journalOf(append([]string{strings.Replace(lines[0], `"v":1`, `"v":99`, 1)}, lines[1:]...)...)))
		f.Add([]byte(journalOf(lines[0], strings.Replace(lines[1], `"v":1`, `"v":0`, 1), strings.Replace(lines[2], `"v":1`, `"v":2`, 1), lines[3])))
		// A second header, and entries before the header.
		f.Add([]byte(journalOf(lines[0], lines[1], lines[0], lines[2])))
		f.Add([]byte(journalOf(lines[1], lines[0])))
	}
	// Direct MCP calls: two places of one tool, and a third that repeats one.
	lines := journalLines(f, "failed-run.jsonl")
	mcp := func(k int, result string) string {
		return `{"v":1,"kind":"mcp.call","at":"2026-12-06T14:07:55Z","path":"pipeline","inputSha256":"` + strings.Repeat("0", 64) +
			`","mcp":{"server":"docs","tool":"search","k":` + strconv.Itoa(k) + `,"result":` + result + `}}`
	}
	f.Add([]byte(journalOf(lines[0], mcp(1, `{"hits":1}`), mcp(2, `{"hits":2}`), mcp(1, `{"hits":3}`))))
	f.Add([]byte(""))
	f.Add([]byte("\n\r\n \n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		j, problems, err := Read(bytes.NewReader(data))
		if err != nil {
			if j != nil {
				t.Fatalf("a journal with the error %v", err)
			}
			return
		}
		checkJournal(t, j)
		checkAccounted(t, data, j, problems)
		checkWrittenAgain(t, j)
	})
}

// checkJournal checks what a journal read holds.
func checkJournal(t *testing.T, j *Journal) {
	t.Helper()
	header := Entry{V: Version, Kind: KindHeader, Header: &j.Header}
	if err := Check(&header); err != nil {
		t.Fatalf("the header %+v: %v", j.Header, err)
	}
	places := map[place]int{}
	for i, e := range j.Entries {
		if err := Check(&e); err != nil {
			t.Fatalf("entry %d %+v: %v", i, e, err)
		}
		if e.V != Version || e.Kind == KindHeader {
			t.Fatalf("entry %d is of version %d, kind %s", i, e.V, e.Kind)
		}
		p := placeOf(e)
		if first, ok := places[p]; ok {
			t.Fatalf("entries %d and %d share the place %+v", first, i, p)
		}
		places[p] = i
	}
}

// place is where an entry's call happened, spelled out field by field:
// the names and numbers its kind's place is made of.
type place struct {
	kind          Kind
	path, a, b    string
	first, second int
}

func placeOf(e Entry) place {
	p := place{kind: e.Kind, path: e.Path}
	switch {
	case e.Execute != nil:
		p.a, p.b, p.first, p.second = e.Execute.ConfigID, e.Execute.Label, e.Execute.Agent, e.Execute.Call
	case e.Child != nil:
		p.a, p.first = e.Child.Name, e.Child.K
	case e.MCP != nil:
		p.a, p.b, p.first = e.MCP.Server, e.MCP.Tool, e.MCP.K
	case e.Budget != nil:
		p.first = e.Budget.Ordinal
	case e.Decision != nil:
		p.first = e.Decision.K
	}
	return p
}

// checkAccounted checks that every line that is not blank (and the torn
// last line, blank or not) is the header, an entry or a problem, and that
// problems name lines in order.
func checkAccounted(t *testing.T, data []byte, j *Journal, problems []Problem) {
	t.Helper()
	lines := bytes.Split(data, []byte{'\n'})
	torn := lines[len(lines)-1]
	lines = lines[:len(lines)-1]
	used := 0
	for _, l := range lines {
		if len(bytes.TrimSpace(l)) > 0 {
			used++
		}
	}
	if len(torn) > 0 {
		used++
	}
	if got := 1 + len(j.Entries) + len(problems); got != used {
		t.Fatalf("%d lines in use, but a header, %d entries and %d problems %v", used, len(j.Entries), len(problems), problems)
	}
	last := 0
	for _, p := range problems {
		if p.Line <= last || p.Line > len(lines)+1 {
			t.Fatalf("problems %v are not lines of the journal in order", problems)
		}
		last = p.Line
	}
}

// checkWrittenAgain writes the journal again, header and entries, and
// reads it back: no problem, and the same entries.
func checkWrittenAgain(t *testing.T, j *Journal) {
	t.Helper()
	var buf bytes.Buffer
	write := func(e Entry) {
		line, err := json.Marshal(e)
		if err != nil {
			t.Fatalf("%+v does not encode: %v", e, err)
		}
		buf.Write(append(line, '\n'))
	}
	write(Entry{V: Version, Kind: KindHeader, Header: &j.Header})
	for _, e := range j.Entries {
		write(e)
	}
	again, problems, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil || len(problems) != 0 {
		t.Fatalf("written again, the journal reads with %v, problems %v:\n%s", err, problems, buf.Bytes())
	}
	first, _ := json.Marshal(j)
	second, _ := json.Marshal(again)
	if !bytes.Equal(first, second) {
		t.Fatalf("written again, the journal reads as\n%s\nnot\n%s", second, first)
	}
}
