// Command fakemodel runs the scripted fake model server (package
// fakemodel) in the foreground until SIGINT/SIGTERM, for benchmarks and
// manual runs of a harness CLI against it. Testscripts use the in-process
// `fakemodel` script command instead.
//
//	fakemodel -script turns.json [-log requests.jsonl] [-addr-file addr]
//
// It prints the base URL on stdout (and writes it to -addr-file, through a
// temporary file and a rename) once it accepts connections.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/fakemodel"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fs := flag.NewFlagSet("fakemodel", flag.ContinueOnError)
	scriptPath := fs.String("script", "", "JSON script of turns (required)")
	logPath := fs.String("log", "", "write the request log here as JSON Lines")
	addrFile := fs.String("addr-file", "", "write the base URL here once listening")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *scriptPath == "" || fs.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: fakemodel -script turns.json [-log requests.jsonl] [-addr-file addr]")
		return 2
	}
	script, err := fakemodel.LoadScript(*scriptPath)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fakemodel: %v\n", err)
		return 2
	}
	srv, err := fakemodel.Start(script, fakemodel.Options{LogFile: *logPath})
	if err != nil {
		fmt.Fprintf(os.Stderr, "fakemodel: %v\n", err)
		return 1
	}
	if *addrFile != "" {
		if err := writeAtomic(*addrFile, srv.URL+"\n"); err != nil {
			fmt.Fprintf(os.Stderr, "fakemodel: %v\n", err)
			srv.Close()
			return 1
		}
	}
	fmt.Println(srv.URL)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	if err := srv.Close(); err != nil {
		fmt.Fprintf(os.Stderr, "fakemodel: %v\n", err)
		return 1
	}
	if unused := srv.UnusedTurns(); len(unused) > 0 {
		fmt.Fprintf(os.Stderr, "fakemodel: turns never used: %v\n", unused)
	}
	return 0
}

func writeAtomic(path, content string) error {
	return atomicfile.WriteFile(path, []byte(content), atomicfile.Public)
}
