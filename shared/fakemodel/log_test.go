package fakemodel

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestLogFileIsJSONLinesWithoutCredentials(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "requests.jsonl")
	srv := startFake(t, `{"turns":[{"repeat":true,"reply":[{"text":"ok"}]}]}`, Options{LogFile: file})
	post(t, srv.URL+"/v1/messages", messagesBody("m", "one", true))
	post(t, srv.URL+"/v1/messages", messagesBody("m", "two", false))
	finished(t, srv, 2)
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n != 2 {
		t.Errorf("%d lines:\n%s", n, data)
	}
	if strings.Contains(string(data), "sk-ant-fake-secret") || strings.Contains(strings.ToLower(string(data)), "x-api-key\":\"sk") {
		t.Errorf("credential logged:\n%s", data)
	}
	got, err := ReadLogFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, srv.Log().Entries()) {
		t.Errorf("file entries differ from memory:\n%+v\n%+v", got, srv.Log().Entries())
	}
	if got[0].Prompt != "one" || got[1].Prompt != "two" || got[1].Outcome != OutcomeCompleted || got[0].Auth != "x-api-key" {
		t.Errorf("entries = %+v", got)
	}
	// Only the log itself: temporary files were renamed into place.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left: %v", entries)
	}
}

func TestLogFileErrorIsReportedOnClose(t *testing.T) {
	s, _ := ParseScript([]byte(`{"turns":[{"reply":[{"text":"ok"}]}]}`))
	srv, err := Start(s, Options{LogFile: filepath.Join(t.TempDir(), "missing-dir", "log.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	post(t, srv.URL+"/v1/messages", messagesBody("m", "x", false))
	if err := srv.Close(); err == nil || !strings.Contains(err.Error(), "missing-dir") {
		t.Errorf("Close = %v, want the log write error", err)
	}
}

func TestReadLogFileNamesTheBadLine(t *testing.T) {
	file := filepath.Join(t.TempDir(), "log.jsonl")
	os.WriteFile(file, []byte(`{"seq":1}`+"\n"+"not json\n"), 0o644)
	if _, err := ReadLogFile(file); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("err = %v", err)
	}
}

func TestAuthKindNeverCarriesTheCredential(t *testing.T) {
	srv := startFake(t, `{"turns":[{"repeat":true,"reply":[{"text":"ok"}]}]}`, Options{})
	req := strings.NewReader(messagesBody("m", "x", false))
	resp, err := (&clientWithHeaders{h: map[string]string{"Authorization": "Bearer tok-secret",
		"X-Custom-Token": "tok2"}}).post(srv.URL+"/v1/messages", req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	e := finished(t, srv, 1)
	if e.Auth != "bearer" {
		t.Errorf("auth = %q", e.Auth)
	}
	for k, v := range e.Headers {
		if strings.Contains(v, "secret") || strings.Contains(v, "tok2") {
			t.Errorf("header %s logged with its value", k)
		}
	}
}
