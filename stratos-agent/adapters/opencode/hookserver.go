package opencode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/stratoscli/stratos/shared/loopbackguard"
)

// hookServer is the loopback endpoint the generated plugin calls from
// inside OpenCode, one per session. Other users of the machine and web
// pages in the user's browser reach its port too, so every request needs
// a random bearer token only that session's server knows (through its
// configuration), and must name the server in Host and come from no other
// origin or site (shared/loopbackguard).
type hookServer struct {
	url   string
	token string
	srv   *http.Server
}

// beforeRequest is the plugin's tool.execute.before call.
type beforeRequest struct {
	SessionID string          `json:"sessionID"`
	CallID    string          `json:"callID"`
	Tool      string          `json:"tool"`
	Args      json.RawMessage `json:"args"`
}

// afterRequest is the plugin's tool.execute.after call: a built-in tool's
// output and metadata, or an MCP tool's result content.
type afterRequest struct {
	beforeRequest
	MCP      bool            `json:"mcp"`
	Output   string          `json:"output"`
	Metadata json.RawMessage `json:"metadata"`
	Content  json.RawMessage `json:"content"`
	IsError  bool            `json:"isError"`
}

// hookAnswer is what the plugin applies: decision allow, deny, modify
// (Args) for before; keep or replace (Output) for after; fail (Reason) for
// either when the author hook threw.
type hookAnswer struct {
	Decision string          `json:"decision"`
	Reason   string          `json:"reason,omitempty"`
	Args     json.RawMessage `json:"args,omitempty"`
	Output   string          `json:"output,omitempty"`
}

func startHookServer(before func(context.Context, beforeRequest) hookAnswer, after func(context.Context, afterRequest) hookAnswer) (*hookServer, error) {
	token, err := loopbackguard.NewToken()
	if err != nil {
		return nil, fmt.Errorf("hook server: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("hook server: %w", err)
	}
	hs := &hookServer{url: "http://" + ln.Addr().String(), token: token}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /before", func(w http.ResponseWriter, r *http.Request) {
		var req beforeRequest
		if decode(w, r, &req) {
			writeAnswer(w, before(r.Context(), req))
		}
	})
	mux.HandleFunc("POST /after", func(w http.ResponseWriter, r *http.Request) {
		var req afterRequest
		if decode(w, r, &req) {
			writeAnswer(w, after(r.Context(), req))
		}
	})
	hs.srv = &http.Server{Handler: loopbackguard.Guard{Token: token}.Wrap(mux), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := hs.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			_ = err // the plugin's calls fail, and with them the invocation
		}
	}()
	return hs, nil
}

// decode reads the body; false when it answered.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<20)).Decode(v); err != nil {
		http.Error(w, "bad request: "+err.Error(), http.StatusBadRequest)
		return false
	}
	return true
}

func writeAnswer(w http.ResponseWriter, a hookAnswer) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(a)
}

func (hs *hookServer) close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return hs.srv.Shutdown(ctx)
}
