package rejection

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
)

func TestRejectionCarriesTheAgentCode(t *testing.T) {
	err := fmt.Errorf("open: %w", New(ModelUnavailable, "model %s not found", "m"))
	if got := agentproto.CodeOf(err); got != agentproto.CodeModelUnavailable {
		t.Fatalf("code %s", got)
	}
	if !TryNext(err) {
		t.Fatal("a new rejection lets the selector go on")
	}
	if TryNext(errors.New("plain")) || TryNext(agentproto.Errorf(agentproto.CodeModelUnavailable, "x")) {
		t.Fatal("only rejections let the selector go on")
	}
}

func TestFinalStopsTheSelector(t *testing.T) {
	r := New(Authentication, "no key")
	for name, err := range map[string]error{
		"direct":  Final(r),
		"wrapped": Final(fmt.Errorf("execute: %w", r)),
		"method":  r.Final(),
	} {
		t.Run(name, func(t *testing.T) {
			if TryNext(err) {
				t.Fatal("final rejection still lets the selector go on")
			}
			if got, ok := As(err); !ok || got.Reason != Authentication {
				t.Fatalf("As = %v, %v", got, ok)
			}
			if agentproto.CodeOf(err) != agentproto.CodeAuthentication {
				t.Fatalf("code %s", agentproto.CodeOf(err))
			}
		})
	}
	if !r.TryNext {
		t.Fatal("Final changed the original")
	}
	plain := errors.New("x")
	if Final(plain) != plain {
		t.Fatal("Final changed a non-rejection")
	}
}
