.PHONY: build test demo bench clean

build:
	go build -o scry ./cmd/scry

# The whole test suite (installs its npm test dependencies first).
test:
	scripts/test.sh

# Set up and run scry's main job on a real codebase (rxjs from npm).
demo:
	scripts/demo.sh

bench:
	scripts/testdeps.sh
	. .cache/testdeps/env && go test -run '^$$' -bench . -benchtime 3x ./internal/chunk ./internal/store ./internal/index

clean:
	rm -rf scry .cache
