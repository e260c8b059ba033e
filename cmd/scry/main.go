package main

import (
	"fmt"
	"os"

	"github.com/scry-dev/scry/internal/render"
)

func main() {
	if err := newRootCmd().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "scry:", render.ErrorLine(err))
		os.Exit(1)
	}
}
