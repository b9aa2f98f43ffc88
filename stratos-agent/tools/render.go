package tools

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
	"text/tabwriter"
)

// WriteText prints l for people: per harness, an aligned table of the
// removable names followed by the always-on names.
func WriteText(w io.Writer, l Listing) error {
	var buf bytes.Buffer
	if err := writeTables(&buf, l); err != nil {
		return err
	}
	// tabwriter pads the short ALWAYS ON lines to the full width.
	_, err := w.Write(trailingSpace.ReplaceAll(buf.Bytes(), []byte("\n")))
	return err
}

var trailingSpace = regexp.MustCompile(` +\n`)

func writeTables(w io.Writer, l Listing) error {
	for i, hl := range l.Harnesses {
		if i > 0 {
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
		}
		if _, err := fmt.Fprintf(w, "%s: removed through %s\n", hl.Harness, hl.Removal); err != nil {
			return err
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  TOOL\tKIND\tNATIVE")
		writeRows(tw, hl.Tools)
		if len(hl.AlwaysOn) == 0 {
			fmt.Fprintln(tw, "  ALWAYS ON: none\t\t")
		} else {
			fmt.Fprintln(tw, "  ALWAYS ON\t\t")
			writeRows(tw, hl.AlwaysOn)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

func writeRows(w io.Writer, ts []ListedTool) {
	for _, t := range ts {
		kind := "harness"
		if t.Canonical {
			kind = "canonical"
		}
		fmt.Fprintf(w, "  %s\t%s\t%s\n", t.Name, kind, strings.Join(t.Native, ", "))
	}
}
