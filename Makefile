# Spyglass — the two commands a new user needs are `make run` and `make test`.
# Both install what is missing first (Debian/Ubuntu packages for Fyne's cgo
# build, Xvfb, the npm test peers) or stop with the one command to run.

SHELL := /bin/bash
GO ?= go
# Build and test with go.mod's toolchain line, a patch release that carries
# the standard library's security fixes (net/http, crypto/tls, …): the go
# command fetches it once through the module proxy when the machine's own Go
# is older. These machines' go.env says GOTOOLCHAIN=local, which would
# ignore that line.
export GOTOOLCHAIN ?= auto
BIN := bin/spyglass
PEERS := .ci/peers
export LANG ?= en_US.UTF-8

# Debian packages: the cgo build of Fyne's GL driver, a virtual display for
# the window tests and screenshots, and a real keyring for the secrets tests.
# libfile-mimeinfo-perl gives xdg-mime (outside a desktop session) the
# shared MIME database's answer for a file: without it xdg-mime asks
# file(1), which reads a trace's content and says application/json.
APT_BUILD := gcc libc6-dev pkg-config libgl1-mesa-dev libxcursor-dev libxrandr-dev \
	libxinerama-dev libxi-dev libxxf86vm-dev
APT_TEST := xvfb xauth imagemagick xdotool x11-utils fonts-dejavu-core dbus gnome-keyring \
	desktop-file-utils appstream shared-mime-info dex xdg-utils libfile-mimeinfo-perl
# make bench only: the window under Xvfb, and Chromium for the official
# inspector's web mode beside it
APT_BENCH := chromium xvfb xauth xdotool fonts-dejavu-core

.PHONY: package install install-files uninstall icons run test build deps deps-build deps-test deps-bench peers bench screenshots fuzz conformance vet clean

## run: open the desktop app on the default catalog
run: deps-build
	$(GO) run . $(ARGS)

## build: build bin/spyglass
build: deps-build
	$(GO) build -o $(BIN) .

## test: the whole test suite, real peers included (CI runs exactly this)
# The suite runs inside a throwaway Secret Service (a private D-Bus session
# with gnome-keyring, .ci/keyring.sh): the keyring tests use the real thing.
test: deps-build deps-test peers vet
	.ci/keyring.sh $(GO) test -race -count=1 -timeout 30m ./...
	@# the tests that measure resident memory, which the race detector's
	@# shadow memory makes meaningless (they skip under -race)
	$(GO) test -count=1 -run '^TestReadLinePeakIsOneLine$$' ./core/wire
	$(MAKE) --no-print-directory fuzz
	$(MAKE) --no-print-directory conformance

# Static analysis, pinned through the Go module proxy and installed into bin/tools.
# govulncheck reads a vulnerability database built from a pinned snapshot of
# golang.org/x/vulndb (the Go team's own OSV files, served by the module proxy):
# these machines reach no other host. Bump VULNDB to see newer advisories.
TOOLS := $(CURDIR)/bin/tools
STATICCHECK := $(TOOLS)/staticcheck
GOVULNCHECK := $(TOOLS)/govulncheck
INDEXDB := $(TOOLS)/indexdb
VULNDB := v0.0.0-20261105234957-e22db6528018
VULNDB_DIR := $(TOOLS)/vulndb-$(VULNDB)

$(STATICCHECK):
	GOBIN=$(TOOLS) $(GO) install honnef.co/go/tools/cmd/staticcheck@v0.8.2
$(GOVULNCHECK):
	GOBIN=$(TOOLS) $(GO) install golang.org/x/vuln/cmd/govulncheck@v1.9.0
$(INDEXDB):
	GOBIN=$(TOOLS) $(GO) install golang.org/x/vulndb/cmd/indexdb@$(VULNDB)
$(VULNDB_DIR)/index/db.json: | $(INDEXDB)
	@src=$$(cd / && GOFLAGS= $(GO) mod download -json golang.org/x/vulndb@$(VULNDB) | sed -n 's/^\t"Dir": "\(.*\)",$$/\1/p'); \
	  test -n "$$src" || { echo "could not download golang.org/x/vulndb@$(VULNDB)"; exit 1; }; \
	  rm -rf $(VULNDB_DIR).tmp && $(INDEXDB) -vulns "$$src/data/osv" -out $(VULNDB_DIR).tmp && rm -rf $(VULNDB_DIR) && mv $(VULNDB_DIR).tmp $(VULNDB_DIR)

## vet: gofmt, go vet, staticcheck (staticcheck.conf), govulncheck, and the Windows/macOS cross-builds
vet: $(STATICCHECK) $(GOVULNCHECK) $(VULNDB_DIR)/index/db.json
	@bad=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$bad" ]; then echo "gofmt wants to rewrite:"; echo "$$bad"; exit 1; fi
	$(GO) vet ./...
	$(STATICCHECK) ./...
	.ci/vulncheck.sh $(GOVULNCHECK) $(VULNDB_DIR)
	@# Linux first, the others not broken: what needs no cgo builds for Windows
	@# and macOS (Fyne's GL driver needs cgo everywhere, and macOS's widgets too).
	CGO_ENABLED=0 GOOS=windows $(GO) build ./core/... ./internal/... ./assets/ ./ui/ ./ui/form/ ./ui/requests/
	CGO_ENABLED=0 GOOS=darwin $(GO) build ./core/... ./internal/... ./assets/

# Each fuzz target runs a bounded number of inputs; a panic or hang fails
# the build. A count, not a duration: with -fuzztime 20s Go 1.26's fuzz
# coordinator can report its own deadline as a failure ("context deadline
# exceeded", no crasher; golang/go#75804, fixed in Go 1.27), which failed a
# clean-clone CI run. 60,000 inputs take each target 1–20 s here (the
# eleven about two minutes in all, with building).
FUZZTIME ?= 60000x
fuzz:
	@set -e; specs=$$(.ci/fuzz-targets.sh); for spec in $$specs; do \
		pkg=$${spec%%:*}; name=$${spec##*:}; \
		echo "fuzz $$name in $$pkg ($(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) $$pkg; \
	done

## conformance: the MCP conformance suite's client scenarios, one at a time
conformance: build peers
	@if [ -x .ci/conformance.sh ]; then .ci/conformance.sh $(BIN); else echo "conformance: .ci/conformance.sh missing"; exit 1; fi

## bench: Spyglass side by side with the official inspector's CLI
bench: build peers deps-bench
	.ci/bench.sh $(BIN)

## screenshots: the real window under Xvfb, PNGs into assets/screenshots/
# (dark and -light), and at 1920x1080 into assets/screenshots/1920x1080/
screenshots: deps-build deps-test
	SPYGLASS_SCREENSHOT_THEMES=dark,light .ci/screenshots.sh
	SIZE=1920x1080 SPYGLASS_SCREENSHOT_THEMES=dark,light .ci/screenshots.sh assets/screenshots/1920x1080

## package: bin/Spyglass.tar.xz for Linux (binary, .desktop file, icon, install Makefile)
FYNE_TOOL := bin/fyne
$(FYNE_TOOL):
	GOBIN=$(CURDIR)/bin $(GO) install fyne.io/tools/cmd/fyne@v1.7.4
package: build $(FYNE_TOOL)
	@# fyne package bumps Build in FyneApp.toml on every run: keep ours as it is.
	cp FyneApp.toml bin/FyneApp.toml.keep
	$(FYNE_TOOL) package -os linux --exe $(BIN) --release; st=$$?; cp bin/FyneApp.toml.keep FyneApp.toml; exit $$st
	mv Spyglass.tar.xz bin/Spyglass.tar.xz
	@echo "bin/Spyglass.tar.xz: extract it and run 'sudo make install' inside to install Spyglass"

## install: Spyglass for this user, into the desktop's application menu
# PREFIX is ~/.local unless given (PREFIX=/usr/local for everyone, with sudo);
# DESTDIR stages the files for a package. Trace files (*.spyglass-trace, or
# any JSON that opens as a trace) get their own MIME type, opened by Spyglass.
PREFIX ?= $(HOME)/.local
APPID := io.github.spyglass_mcp.spyglass
ICON_SIZES := 16 24 32 48 64 128 256 512
SHARE = $(DESTDIR)$(PREFIX)/share
install: build
	@$(MAKE) --no-print-directory install-files

# install-files: what install copies, without building (BIN= a built binary).
install-files:
	@test -x $(BIN) || { echo "$(BIN) is missing: run make install (it builds it)"; exit 1; }
	install -Dm755 $(BIN) $(DESTDIR)$(PREFIX)/bin/spyglass
	@mkdir -p $(SHARE)/applications
	sed 's|^Exec=spyglass|Exec=$(PREFIX)/bin/spyglass|' assets/linux/$(APPID).desktop > $(SHARE)/applications/$(APPID).desktop
	install -Dm644 assets/linux/$(APPID).metainfo.xml $(SHARE)/metainfo/$(APPID).metainfo.xml
	install -Dm644 assets/linux/$(APPID)-trace.xml $(SHARE)/mime/packages/$(APPID)-trace.xml
	install -Dm644 assets/spyglass.svg $(SHARE)/icons/hicolor/scalable/apps/$(APPID).svg
	@for s in $(ICON_SIZES); do \
		install -Dm644 assets/icons/hicolor/$${s}x$${s}/apps/$(APPID).png $(SHARE)/icons/hicolor/$${s}x$${s}/apps/$(APPID).png; done
	@# The desktop's caches, when the files went where they are used.
	@if [ -z "$(DESTDIR)" ]; then \
		command -v update-mime-database >/dev/null && update-mime-database $(SHARE)/mime; \
		command -v update-desktop-database >/dev/null && update-desktop-database -q $(SHARE)/applications; \
		command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t $(SHARE)/icons/hicolor; \
		true; fi
	@echo "Spyglass is installed in $(PREFIX); it is in the application menu as Spyglass."

## uninstall: remove what install put under PREFIX
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/spyglass $(SHARE)/applications/$(APPID).desktop \
		$(SHARE)/metainfo/$(APPID).metainfo.xml $(SHARE)/mime/packages/$(APPID)-trace.xml \
		$(SHARE)/icons/hicolor/scalable/apps/$(APPID).svg
	@for s in $(ICON_SIZES); do rm -f $(SHARE)/icons/hicolor/$${s}x$${s}/apps/$(APPID).png; done
	@if [ -z "$(DESTDIR)" ]; then \
		command -v update-mime-database >/dev/null && [ -d $(SHARE)/mime ] && update-mime-database $(SHARE)/mime; \
		command -v update-desktop-database >/dev/null && [ -d $(SHARE)/applications ] && update-desktop-database -q $(SHARE)/applications; \
		true; fi

## icons: render assets/spyglass.svg to the PNG sizes (needs librsvg2-bin)
icons:
	@command -v rsvg-convert >/dev/null || { echo "rsvg-convert is missing; run: sudo apt-get install -y librsvg2-bin"; exit 1; }
	@for s in $(ICON_SIZES); do mkdir -p assets/icons/hicolor/$${s}x$${s}/apps; \
		rsvg-convert -w $$s -h $$s assets/spyglass.svg -o assets/icons/hicolor/$${s}x$${s}/apps/$(APPID).png; done
	cp assets/icons/hicolor/512x512/apps/$(APPID).png assets/Icon.png

## peers: install the pinned npm test peers into .ci/peers/node_modules
peers: $(PEERS)/node_modules/.installed

$(PEERS)/node_modules/.installed: $(PEERS)/package.json $(PEERS)/package-lock.json
	@command -v npm >/dev/null || { echo "npm is missing; run: sudo apt-get install -y nodejs npm"; exit 1; }
	@# npm ci installs exactly the lock and never rewrites it (make test leaves
	@# git status clean); the lock lists every optional dependency, Windows-only
	@# ones included, so npm has nothing to add.
	cd $(PEERS) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

deps: deps-build deps-test

deps-build:
	@.ci/apt-ensure.sh $(APT_BUILD)

deps-test:
	@.ci/apt-ensure.sh $(APT_TEST)

deps-bench:
	@.ci/apt-ensure.sh $(APT_BENCH)

clean:
	rm -rf bin $(PEERS)/node_modules
