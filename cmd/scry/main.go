package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/scry-dev/scry/internal/render"
)

func main() {
	if err := newRootCmd().Execute(); err != nil {
		var done exitError
		if errors.As(err, &done) {
			os.Exit(done.code) // reported already, by the server that ran it
		}
		fmt.Fprintln(os.Stderr, "scry:", render.ErrorLine(err))
		os.Exit(1)
	}
}
