package answer_test

import (
	"context"

	"github.com/scry-dev/scry/internal/answer"
	"github.com/scry-dev/scry/internal/engine"
)

// reads is the local form of e's View, which the structure questions
// read (a local engine always has one).
func reads(e *engine.Engine) answer.Local {
	l, err := e.Local(context.Background())
	if err != nil {
		panic(err)
	}
	return l
}
