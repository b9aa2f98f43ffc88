// Package clidocs generates the command reference (docs/cli/*.md) and the
// man pages (docs/man/*.1) from the command trees of the Stratos tools, so
// the documented flags are the flags the binaries accept. It lives in the
// testscripts module because that module already links every tool.
//
// cmd/gendocs writes the files; the package's test fails when the committed
// files differ from what Generate produces.
package clidocs

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/cpuguy83/go-md2man/v2/md2man"
	docs "github.com/urfave/cli-docs/v3"
	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/dispatch"
	agent "github.com/stratoscli/stratos/stratos-agent/command"
	build "github.com/stratoscli/stratos/stratos-build/command"
	discover "github.com/stratoscli/stratos/stratos-discover/command"
	models "github.com/stratoscli/stratos/stratos-models/command"
	run "github.com/stratoscli/stratos/stratos-run/command"
	temporal "github.com/stratoscli/stratos/stratos-temporal/command"
	worktree "github.com/stratoscli/stratos/stratos-worktree/command"
)

// Directories under the repository root that Generate owns entirely: a file
// there that Generate does not produce is stale.
const (
	CLIDir = "docs/cli"
	ManDir = "docs/man"
)

// RegenerateHint tells a person how to bring the files up to date.
const RegenerateHint = "regenerate with `go run ./testscripts/cmd/gendocs` from the repository root (or scripts/gen-docs)"

// manSection is the man section of user commands.
const manSection = 1

// File is one generated file, Path relative to the repository root.
type File struct {
	Path    string
	Content []byte
}

// tools returns every command tree to document, the dispatcher first.
func tools() []*cli.Command {
	return []*cli.Command{
		dispatcher(),
		discover.Root(), build.Root(), run.Root(), agent.Root(), temporal.Root(), worktree.Root(), models.Root(),
	}
}

// Generate renders the reference page and the man page of every tool, and
// the index of docs/cli. Its output depends only on the command trees.
func Generate() ([]File, error) {
	var files []File
	for _, cmd := range tools() {
		withoutHidden(cmd)
		md, err := docs.ToTabularMarkdown(cmd, cmd.Name)
		if err != nil {
			return nil, fmt.Errorf("render the reference of %s: %w", cmd.Name, err)
		}
		man, err := manPage(cmd)
		if err != nil {
			return nil, fmt.Errorf("render the man page of %s: %w", cmd.Name, err)
		}
		files = append(files,
			File{Path: CLIDir + "/" + cmd.Name + ".md", Content: []byte(generatedNotice("<!--", "-->") + escapeAngles(md))},
			File{Path: fmt.Sprintf("%s/%s.%d", ManDir, cmd.Name, manSection), Content: []byte(generatedNotice(`.\"`, "") + man)},
		)
	}
	files = append(files, File{Path: CLIDir + "/README.md", Content: index()})
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

// manPage renders cmd as a man page. cli-docs' own man renderer leaves out
// the descriptions of subcommands and lets the markdown renderer take
// <placeholders> for HTML (they vanish), so the markdown is prepared here
// and then turned into roff by the same go-md2man.
func manPage(cmd *cli.Command) (string, error) {
	withDescriptionsInUsage(cmd.Commands)
	md, err := docs.ToMarkdown(cmd)
	if err != nil {
		return "", err
	}
	header := fmt.Sprintf("%% %s %d\n\n", cmd.Name, manSection)
	return string(md2man.Render([]byte(header + escapeAngles(md)))), nil
}

// withDescriptionsInUsage appends each command's description to its usage
// line, the only per-command text cli-docs' markdown renders.
func withDescriptionsInUsage(commands []*cli.Command) {
	for _, c := range commands {
		if c.Description != "" {
			c.Usage += "\n\n" + c.Description
		}
		withDescriptionsInUsage(c.Commands)
	}
}

// escapeAngles backslash-escapes < and > in markdown text, outside code
// blocks and code spans, so placeholders such as <workflow> or
// <execution-id> stay text instead of being read as HTML tags.
func escapeAngles(md string) string {
	lines := strings.Split(md, "\n")
	fenced := false
	for i, line := range lines {
		switch {
		case strings.HasPrefix(strings.TrimSpace(line), "```"):
			fenced = !fenced
		case fenced, strings.HasPrefix(line, "    "), strings.HasPrefix(line, "\t"):
		default:
			lines[i] = escapeOutsideCodeSpans(line)
		}
	}
	return strings.Join(lines, "\n")
}

func escapeOutsideCodeSpans(line string) string {
	body := strings.TrimLeft(line, " ")
	if strings.HasPrefix(body, ">") { // a block quote's marker stays one
		return line[:len(line)-len(body)] + ">" + escapeOutsideCodeSpans(body[1:])
	}
	parts := strings.Split(line, "`")
	for i := 0; i < len(parts); i += 2 { // even parts are outside `code`
		parts[i] = strings.NewReplacer("<", `\<`, ">", `\>`).Replace(parts[i])
	}
	return strings.Join(parts, "`")
}

// withoutHidden drops hidden commands (internal ones, such as
// stratos-build prepare) from the tree; not every renderer skips them.
func withoutHidden(cmd *cli.Command) {
	visible := cmd.Commands[:0]
	for _, sub := range cmd.Commands {
		if !sub.Hidden {
			withoutHidden(sub)
			visible = append(visible, sub)
		}
	}
	cmd.Commands = visible
}

func generatedNotice(open, close string) string {
	line := open + " Generated by testscripts/cmd/gendocs from the commands themselves; do not edit. " + close
	return strings.TrimRight(line, " ") + "\n"
}

// dispatcher describes `stratos` (and `st`), which is not a urfave/cli
// command itself: its commands are the dispatch table's routes.
func dispatcher() *cli.Command {
	names := slices.Sorted(maps.Keys(dispatch.Routes))
	cmd := &cli.Command{
		Name:  "stratos",
		Usage: "run workflows of AI coding agents",
		Description: "stratos (alias st) runs the Stratos tool that owns each command, passing arguments, " +
			"standard streams and the exit code through. stratos --version prints the version; " +
			"stratos help <command> or stratos <command> --help shows a command's flags",
		UsageText: "stratos <command> [arguments]",
	}
	for _, name := range names {
		r := dispatch.Routes[name]
		cmd.Commands = append(cmd.Commands, &cli.Command{
			Name:  name,
			Usage: fmt.Sprintf("%s (runs %s%s)", r.Usage, r.Tool, otherTools(name, r)),
		})
	}
	return cmd
}

// otherTools names the tools a route sends some of its subcommands to
// ("; mcp serve runs stratos-run"), sorted by subcommand.
func otherTools(name string, r dispatch.Route) string {
	var b strings.Builder
	for _, word := range slices.Sorted(maps.Keys(r.SubcommandTools)) {
		fmt.Fprintf(&b, "; %s %s runs %s", name, word, r.SubcommandTools[word])
	}
	return b.String()
}

// nestedRoutes are the dispatcher's commands whose tool takes the rest of
// the command line as its own subcommands, sorted.
func nestedRoutes() []string {
	var names []string
	for name, r := range dispatch.Routes {
		if r.Nested {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// index is docs/cli/README.md: one line per tool.
func index() []byte {
	var b bytes.Buffer
	b.WriteString(generatedNotice("<!--", "-->"))
	b.WriteString("# Command reference\n\n")
	b.WriteString("Every command and flag of every Stratos tool, generated from the commands themselves.\n")
	b.WriteString("The same pages are man pages in [../man/](../man/) (`man -l docs/man/stratos-run.1`).\n")
	b.WriteString("What the commands do, with examples, is in the topic pages of [the documentation](../README.md).\n\n")
	b.WriteString("`stratos <command>` (or `st <command>`) runs the tool that owns the command with the same\n")
	b.WriteString("arguments (`stratos build …` is `stratos-build build …`); the flags are the tool's.")
	for _, name := range nestedRoutes() {
		fmt.Fprintf(&b, " `stratos %s …` is `%s …`.", name, dispatch.Routes[name].Tool)
	}
	for _, name := range slices.Sorted(maps.Keys(dispatch.Routes)) {
		r := dispatch.Routes[name]
		group := name + " " // what the tool gets before the subcommand
		if r.Nested {
			group = ""
		}
		for _, word := range slices.Sorted(maps.Keys(r.SubcommandTools)) {
			fmt.Fprintf(&b, " `stratos %s %s …` is `%s %s%s …`, the rest of `stratos %s …` `%s %s…`.",
				name, word, r.SubcommandTools[word], group, word, name, r.Tool, group)
		}
	}
	b.WriteString("\n\n")
	b.WriteString("| tool | what it does | man page |\n|---|---|---|\n")
	for _, cmd := range tools() {
		fmt.Fprintf(&b, "| [%s](%s.md) | %s | [%s(%d)](../man/%s.%d) |\n",
			cmd.Name, cmd.Name, cmd.Usage, cmd.Name, manSection, cmd.Name, manSection)
	}
	return b.Bytes()
}

// Write writes files under root and removes every other file of the
// generated directories, so a command that disappears loses its page.
func Write(root string, files []File) error {
	want := map[string]bool{}
	for _, f := range files {
		want[f.Path] = true
		path := filepath.Join(root, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, f.Content, 0o644); err != nil {
			return err
		}
	}
	existing, err := existingFiles(root)
	if err != nil {
		return err
	}
	for _, rel := range existing {
		if !want[rel] {
			if err := os.Remove(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
				return err
			}
		}
	}
	return nil
}

// Stale lists, relative to root, the files that differ from files: changed
// or missing ones, and extra files in the generated directories.
func Stale(root string, files []File) ([]string, error) {
	var stale []string
	want := map[string]bool{}
	for _, f := range files {
		want[f.Path] = true
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.Path)))
		if err != nil || !bytes.Equal(got, f.Content) {
			stale = append(stale, f.Path)
		}
	}
	existing, err := existingFiles(root)
	if err != nil {
		return nil, err
	}
	for _, rel := range existing {
		if !want[rel] {
			stale = append(stale, rel+" (not generated any more)")
		}
	}
	return stale, nil
}

// existingFiles lists the files of the generated directories, relative to
// root with forward slashes.
func existingFiles(root string) ([]string, error) {
	var out []string
	for _, dir := range []string{CLIDir, ManDir} {
		entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if !e.IsDir() {
				out = append(out, dir+"/"+e.Name())
			}
		}
	}
	return out, nil
}

// WorkingRepositoryRoot is RepositoryRoot of the working directory (a
// test's is its package's directory).
func WorkingRepositoryRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return RepositoryRoot(dir)
}

// RepositoryRoot is the nearest ancestor of dir (itself included) that holds
// go.work: the root of the Stratos repository.
func RepositoryRoot(dir string) (string, error) {
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.work in the working directory or above: run inside the Stratos repository")
		}
		dir = parent
	}
}
