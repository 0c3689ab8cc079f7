# Quire — the two set-up commands are `make run` and `make test`.
SWIFT ?= swift
RUN_DIR := $(shell mktemp -u /tmp/quire-sample-XXXXXX)

.PHONY: run test check deps build release bench fuzz clean install uninstall

# Where `make install` puts quire (DESTDIR: a staging root, as packagers use).
PREFIX ?= /usr/local
BINDIR := $(DESTDIR)$(PREFIX)/bin
MANDIR := $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
DOCDIR := $(DESTDIR)$(PREFIX)/share/doc/quire

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product quire

# Opens a review of a scratch copy of SampleVault/, so the repository stays clean.
run: release
	@cp -R SampleVault $(RUN_DIR)
	@echo "Sample vault copied to $(RUN_DIR)"
	@$$($(SWIFT) build -c release --show-bin-path)/quire -C $(RUN_DIR) review

# The suites that parse Markdown, run again with the cmark-gfm shim's public-API path.
PUBLIC_API_TESTS := QuireMarkdownTests|QuireParsingTests|QuireIndexTests\.(IndexCacheTests|VaultIndexTests)|EndToEndTests\.(SampleVaultTests|FuzzCorpusTests)

test:
	@QUIRE_TEST_DEPS=1 scripts/install-deps.sh
	@# Every module imports only what Package.swift gives it: none imports one above it.
	python3 scripts/module-graph.py --check
	@# Every module, type, file and path docs/ARCHITECTURE.md names exists.
	python3 scripts/architecture-check.py
	@# No source file over 600 lines, no function over 80, the executable under a tenth of the lines.
	python3 scripts/size-check.py --check
	$(SWIFT) build --build-tests
	@# A short, repeatable fuzz run of every parser under AddressSanitizer (make fuzz: a long one).
	FUZZ_RUNS=3000 scripts/fuzz.sh
	QUIRE_REQUIRE_TOOLS=1 $(SWIFT) test --skip-build
	@# The cmark-gfm shim's public-API path (what any cmark-gfm but the fast path's version gets),
	@# forced by QUIRE_CMARK_PUBLIC_API (Package.swift). Only the shim's C file is compiled again
	@# and the tests relinked (seconds, where a build folder of its own took six minutes); the fast
	@# path is built back afterwards whether the tests pass or not.
	QUIRE_CMARK_PUBLIC_API=1 $(SWIFT) build --build-tests
	@QUIRE_CMARK_PUBLIC_API=1 QUIRE_REQUIRE_TOOLS=1 $(SWIFT) test --skip-build --filter '$(PUBLIC_API_TESTS)'; status=$$?; \
		$(SWIFT) build --build-tests >/dev/null; exit $$status

check:
	@# The inner loop: every test but the end-to-end suites (the binary, tmux, chromium, whisper,
	@# Anki) and the judged generation sets, on what is installed (about 1.5 minutes on 2 cores;
	@# make test runs everything).
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip EndToEndTests --skip GenerationQualityTests

bench:
	@QUIRE_BENCH_DEPS=1 scripts/install-deps.sh
	$(SWIFT) build -c release --product quire
	$(SWIFT) build -c release --product QuireBench
	$$($(SWIFT) build -c release --show-bin-path)/QuireBench --suite --files 1000,10000,100000 --runs 3

fuzz:
	scripts/fuzz.sh 600

# The release binary, its manual page (made from the commands' own definitions) and the shells'
# completions (decks and tags completed from the vault the shell is in).
install: release
	@bin=$$($(SWIFT) build -c release --show-bin-path)/quire; \
	install -d $(BINDIR) $(MANDIR) $(BASHDIR) $(ZSHDIR) $(FISHDIR) $(DOCDIR) && \
	install -m 644 docs/*.md $(DOCDIR)/ && \
	install -m 755 $$bin $(BINDIR)/quire && \
	python3 scripts/manpage.py $$bin > $(MANDIR)/quire.1 && \
	$$bin --generate-completion-script bash > $(BASHDIR)/quire && \
	$$bin --generate-completion-script zsh > $(ZSHDIR)/_quire && \
	$$bin --generate-completion-script fish > $(FISHDIR)/quire.fish && \
	echo "Installed $(BINDIR)/quire, its manual page (man quire), the docs (quire help topics) and bash, zsh and fish completions."

uninstall:
	rm -f $(BINDIR)/quire $(MANDIR)/quire.1 $(BASHDIR)/quire $(ZSHDIR)/_quire $(FISHDIR)/quire.fish
	rm -rf $(DOCDIR)

clean:
	rm -rf .build
