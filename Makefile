# pgncheck - a strict PGN validator and game adjudicator.
PREFIX   ?= /usr/local
MANDIR   ?= $(PREFIX)/share/man
CC       ?= cc
WARN      = -std=c17 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
            -Wmissing-prototypes -Wwrite-strings -Wcast-qual -Wformat=2 -Wvla
CFLAGS   ?= -O2 -g
ALL_CFLAGS = $(WARN) -D_POSIX_C_SOURCE=200809L $(CFLAGS) $(EXTRA_CFLAGS)
LDLIBS   += -lpthread
SANFLAGS  = -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
            -DPGNCHECK_DEBUG

# BUILD is where objects go; the sanitizer build uses its own tree.
BUILD    ?= build
BIN      ?= .

LIB_SRC  = $(filter-out src/main.c,$(wildcard src/*.c))
LIB_OBJ  = $(LIB_SRC:src/%.c=$(BUILD)/%.o)
TEST_PROGS = $(BIN)/tests/perft $(BIN)/tests/unit $(BIN)/tests/test_reader $(BIN)/tests/sanbench \
             $(BIN)/tests/peakrss $(BIN)/tests/test_unwin

# make (all) builds the tool; the test programs are built for the targets
# that run them (make test, check, bench, perft-full, unwin-full; or make tests).
all: $(BIN)/pgncheck

tests: $(TEST_PROGS)

$(BUILD)/%.o: src/%.c
	@mkdir -p $(BUILD)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(BUILD)/tests
	$(CC) $(ALL_CFLAGS) -Isrc -MMD -MP -c -o $@ $<

$(BIN)/pgncheck: $(BUILD)/main.o $(LIB_OBJ)
	@mkdir -p $(BIN)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(BUILD)/main.o $(LIB_OBJ) $(LDLIBS)

$(BIN)/tests/%: $(BUILD)/tests/%.o $(LIB_OBJ)
	@mkdir -p $(BIN)/tests
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS)

# The whole suite: normal build, then the same tests under ASan+UBSan;
# both passes run, then their counts, the suites skipped and one total.
test: all tests
	@mkdir -p build && rm -f build/test-totals
	@TEST_TOTALS=build/test-totals sh tests/run.sh . "pass 1 of 2: normal build"; a=$$?; \
	TEST_TOTALS=build/test-totals $(MAKE) --no-print-directory check; b=$$?; \
	sh tests/run.sh --total build/test-totals 2 && [ $$a -eq 0 ] && [ $$b -eq 0 ]

# Sanitizer build in build/san and tests run against it; the plain build
# is what runs under valgrind memcheck (tests/suites/corpus.sh).
check: all tests
	@$(MAKE) --no-print-directory BUILD=build/san/obj BIN=build/san \
	    CFLAGS="$(SANFLAGS)" build/san/pgncheck build/san/tests/perft \
	    build/san/tests/unit build/san/tests/test_reader build/san/tests/test_unwin
	@SANITIZED=1 PLAIN_BIN=. sh tests/run.sh build/san "$${TEST_TOTALS:+pass 2 of 2: }sanitizer build (ASan, UBSan)"

perft-full: all tests
	./tests/perft tests/epd/standard.epd 5
	@mkdir -p build
	grep '^rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ' tests/epd/standard.epd > build/startpos.epd
	./tests/perft build/startpos.epd 6
	./tests/perft tests/epd/chess960.epd 5

# CHA's public test vector, every position, both colours (3,606 questions):
# no unsound verdict, every helpmate replayed, and the share decided, at
# 10,000,000 nodes a question with a 64 MB table: 99.06% (the program's
# defaults, 200,000 and 6 MB, decide 92.5%; about 6 minutes of one core).
UNWIN_VECTOR = ../shared/corpus/edge/gh-d3-chess/test-vector.txt
UNWIN_BUDGET = 10000000
UNWIN_TABLE_MB = 64
UNWIN_MINPCT = 99.0
unwin-full: all tests
	@mkdir -p build
	@UNWIN_TABLE_MB=$(UNWIN_TABLE_MB) ./tests/test_unwin $(UNWIN_VECTOR) 1 $(UNWIN_BUDGET) $(UNWIN_MINPCT) \
	    > build/unwin-full.out; rc=$$?; grep -v '^# undetermined' build/unwin-full.out; exit $$rc

bench: all tests
	@sh tests/bench.sh

# Byte-for-byte check of every output mode on the corpus against REF's
# build (a refactor must reproduce it; tests/samecheck.sh).
REF ?= main
samecheck: $(BIN)/pgncheck
	@sh tests/samecheck.sh against $(REF) $(CURDIR)/$(BIN)/pgncheck

# Issue 31's done-when: every error line of the text output before it
# (REV31, built once into build/textlines-REV31/) is still printed, but for
# the listed ones it turns into warnings or folds into their root cause.
REV31 ?= 0a4f455
textlines: $(BIN)/pgncheck
	@python3 tests/textlines_check.py --rev $(REV31) $(CURDIR)/$(BIN)/pgncheck

# bash completion where bash-completion looks for it (pkg-config's
# completionsdir under /usr; BASHCOMPDIR to put it elsewhere).
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions

install: $(BIN)/pgncheck
	mkdir -p $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR)
	cp -f pgncheck $(DESTDIR)$(PREFIX)/bin/pgncheck
	cp -f man/pgncheck.1 $(DESTDIR)$(MANDIR)/man1/pgncheck.1
	cp -f src/pgncheck.bash $(DESTDIR)$(BASHCOMPDIR)/pgncheck

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/pgncheck $(DESTDIR)$(MANDIR)/man1/pgncheck.1 $(DESTDIR)$(BASHCOMPDIR)/pgncheck

clean:
	rm -rf build pgncheck $(TEST_PROGS)

.PHONY: all tests test check perft-full unwin-full bench samecheck textlines install uninstall clean

-include $(wildcard $(BUILD)/*.d $(BUILD)/tests/*.d)

# libFuzzer targets (clang): FUZZ_SECONDS per target from corpus/fuzz (tests/fuzz.mk).
fuzz:
	@$(MAKE) --no-print-directory -f tests/fuzz.mk fuzz-run
.PHONY: fuzz

# --repair's benchmark (issue 35): 100 games of each kind of slip, made by
# tests/repair/gen.py (seed 35) from four players' games, scored per kind.
REPAIR_GAMES = ../shared/corpus/real/gh-pgnmentor-players
repair-bench: $(BIN)/pgncheck
	@mkdir -p build
	python3 tests/repair/gen.py ./pgncheck 35 100 build/repair-bench.pgn build/repair-bench.tsv \
	    $(REPAIR_GAMES)/Carlsen.pgn $(REPAIR_GAMES)/Kasparov.pgn $(REPAIR_GAMES)/Fischer.pgn $(REPAIR_GAMES)/Anand.pgn
	python3 tests/repair/bench.py ./pgncheck build/repair-bench.pgn build/repair-bench.tsv --repair
