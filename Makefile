# Thin over go: the commands a contributor types daily.
GO        ?= go
BIN       := $(or $(shell $(GO) env GOBIN),$(firstword $(subst :, ,$(shell $(GO) env GOPATH)))/bin)/loophook
FUZZTIME  ?= 60s
# urfave/cli's man-page generator pulls in a Markdown parser whose package
# init costs every hook call about 0.3 ms; loophook has no use for it.
TAGS      := urfave_cli_no_docs
# GoReleaser, pinned: v2.18 needs Go 1.27, and v2.17.0 a module (go-msix)
# that the module proxy refused here.
GORELEASER := $(GO) run github.com/goreleaser/goreleaser/v2@v2.16.0
# staticcheck, pinned: 2026.2.2 is the release built for Go 1.26; go run
# fetches and builds it on a machine that has only Go.
STATICCHECK := $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: build install test unit test-windows e2e e2e-latest lint bench fuzz clean release-snapshot

## build: build ./loophook
build:
	$(GO) build -tags $(TAGS) -o loophook ./cmd/loophook

## install: install loophook into $(GOPATH)/bin and run it on the example state
install:
	$(GO) install -tags $(TAGS) ./cmd/loophook
	@echo "installed $(BIN)"
	@echo "\$$ loophook eval --state schema/example.json"
	@$(BIN) eval --state schema/example.json; test $$? -le 1
	@command -v loophook >/dev/null || echo "hint: add $(dir $(BIN)) to your PATH"

## test: everything CI runs: vet, the unit tests, testscripts and fuzz seeds (the race detector where there is concurrency), and the end-to-end suite on the real Claude Code
test: lint unit e2e

## unit: the unit tests, fuzz seeds and testscripts; the race detector where there is concurrency (the memory, its lock, concurrent stops)
unit:
	$(GO) test -count=1 ./...
	$(GO) test -race -count=1 -run 'Concurrent|Killed|Panic|FIFO|Lock|Atomic' ./hook/...

## test-windows: the unit tests and testscripts as a Windows build, run under Wine; ../shared/windows/setup-wine.sh (as root, idempotent) makes Wine run them
test-windows:
	@if [ "$$(id -u)" = 0 ]; then bash ../shared/windows/setup-wine.sh; else sudo bash ../shared/windows/setup-wine.sh; fi
	GOOS=windows $(GO) test -count=1 -overlay=/opt/wine-go/overlay.json ./...

## e2e: the end-to-end suite on the seven real hosts at the releases it pins (fetched once, cached)
e2e:
	$(GO) test -tags e2e -count=1 -timeout 45m -v ./testscripts/e2e/

## e2e-latest: the end-to-end suite on the newest release of every host (npm view at run time, cached per version); prints the releases it ran
e2e-latest:
	LOOPHOOK_E2E_LATEST=1 $(GO) test -tags e2e -count=1 -timeout 60m -v ./testscripts/e2e/

## lint: gofmt, go vet and staticcheck, the end-to-end suite too
lint:
	@test -z "$$(gofmt -l .)" || (echo "gofmt would change:"; gofmt -l .; exit 1)
	$(GO) vet ./...
	$(GO) vet -tags e2e ./testscripts/e2e/
	$(STATICCHECK) ./...
	$(STATICCHECK) -tags e2e ./testscripts/e2e/

## bench: time whole-process loophook stop against the floor, and the Go benchmarks
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./criteria ./schema ./hook ./hook/state ./hook/transcript
	$(GO) run ./internal/benchhook -tags $(TAGS)

## fuzz: run every fuzz target in the module for FUZZTIME each
fuzz:
	@for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "$$pkg $$f"; \
			$(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
		done; \
	done

## release-snapshot: check .goreleaser.yaml and build every release archive into dist/, publishing nothing
release-snapshot:
	$(GORELEASER) check
	$(GORELEASER) release --snapshot --clean

clean:
	rm -f loophook
