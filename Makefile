.PHONY: build install test demo model bench bench-quality bench-speed bench-answer bench-localize bench-queries clean

# Every go command below builds SQLite from C with FTS5, without extension
# loading (internal/sqlitedb; scripts/goflags.sh does the same for the
# scripts). Without these tags scry still builds, on SQLite translated to Go.
SQLITE_TAGS := -tags=sqlite_fts5,sqlite_omit_load_extension
ifeq ($(findstring sqlite_fts5,$(GOFLAGS)),)
export GOFLAGS := $(strip $(GOFLAGS) $(SQLITE_TAGS))
endif

build:
	go build -o scry ./cmd/scry

# Put scry on PATH: $(PREFIX)/bin/scry (default ~/.local/bin/scry).
PREFIX ?= $(HOME)/.local
install: build
	mkdir -p "$(PREFIX)/bin"
	install -m 0755 scry "$(PREFIX)/bin/scry"
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) echo "installed $(PREFIX)/bin/scry";; \
	  *) echo "installed $(PREFIX)/bin/scry; $(PREFIX)/bin is not on PATH: add it, e.g. export PATH=\"$(PREFIX)/bin:\$$PATH\"";; esac

# The whole test suite, as CI runs it: installs its npm test dependencies,
# builds Weaviate once per machine and starts it on loopback (it says so first).
test:
	scripts/test.sh

# Set up and run scry's main job on a real codebase (rxjs from npm).
demo:
	scripts/demo.sh

# Rebuild the built-in embedding model's weights from the pinned npm packages
# (internal/embed/builtin/train/packages.txt) and print its validation
# figures; then refresh the golden vectors of the shipped model.
# SCRY_MODEL_CORPUS moves the downloaded packages elsewhere (both steps read it).
MODEL_CORPUS ?= $(or $(SCRY_MODEL_CORPUS),.cache/model-corpus)
model:
	scripts/model-corpus.sh "$(MODEL_CORPUS)"
	go run ./cmd/scry-train --corpus "$(MODEL_CORPUS)" --out internal/embed/builtin/model.bin
	go test ./internal/embed/builtin -run Golden -update

bench:
	scripts/testdeps.sh
	. .cache/testdeps/env && go test -run '^$$' -bench . -benchtime 3x ./internal/chunk ./internal/store ./internal/index

# Retrieval quality against grep and BM25 baselines, and indexing/query speed
# (pinned npm packages; see BENCHMARKS.md).
bench-quality: build
	scripts/bench-corpus.sh
	./scry bench quality --corpus .cache/bench-corpus

# Localization on real fix commits (needs bare git mirrors of the eight
# repositories in SCRY_BENCH_MIRRORS; see BENCHMARKS.md). Prints both splits.
bench-localize: build
	./scry bench localize --instances ../shared/bench/localize-tune.jsonl

# Agent-style questions (../shared/bench/queries: bare names, "how does X
# work", behaviour in the domain's words) on eleven repositories at pinned
# revisions, from the same mirrors: NDCG@10 and default answers.
bench-queries: build
	./scry bench queries --queries ../shared/bench/queries

bench-speed: build
	scripts/bench-corpus.sh
	./scry bench speed --corpus .cache/bench-corpus

# End-to-end answers on rxjs + effect (612 files) with the TypeScript 7 server.
bench-answer:
	scripts/testdeps.sh
	. .cache/testdeps/env && go test ./internal/engine -run '^$$' -bench SearchAnswer -benchtime 1x -count 3

clean:
	rm -rf scry .cache
