package worker

import (
	"path/filepath"
	"testing"
)

func TestAnAnswerFileIsOneFileUnderAnswers(t *testing.T) {
	got := answerFile("stratos-20261207T195731Z-9c742e76/execute/cbc85424e81379d754b2a3c116f28987")
	if want := filepath.Join("answers", "stratos-20261207T195731Z-9c742e76_execute_cbc85424e81379d754b2a3c116f28987.json"); got != want {
		t.Errorf("answerFile = %q, want %q", got, want)
	}
}
