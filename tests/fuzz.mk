# tests/fuzz.mk - libFuzzer targets (clang -fsanitize=fuzzer,address,undefined).
# Used by "make fuzz" (runs each target FUZZ_SECONDS from corpus/fuzz/<target>)
# and by tests/suites/fuzz.sh.  Objects and binaries go to build/fuzz.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_DIR      = build/fuzz
FUZZ_SAN      = -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS   = -std=c17 -D_POSIX_C_SOURCE=200809L -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN)
FUZZ_TARGETS  = fuzz_reader fuzz_fen fuzz_san fuzz_pipeline fuzz_export fuzz_select fuzz_unwin

FUZZ_LIB_SRC  = $(filter-out src/main.c src/cli.c,$(wildcard src/*.c))
FUZZ_LIB_OBJ  = $(FUZZ_LIB_SRC:src/%.c=$(FUZZ_DIR)/obj/%.o)
FUZZ_BINS     = $(FUZZ_TARGETS:%=$(FUZZ_DIR)/%)

fuzz-build: $(FUZZ_BINS)

$(FUZZ_DIR)/obj/%.o: src/%.c src/*.h
	@mkdir -p $(FUZZ_DIR)/obj
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_DIR)/%: tests/fuzz/%.c tests/fuzz/fuzz_common.h $(FUZZ_LIB_OBJ)
	@mkdir -p $(FUZZ_DIR)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -Isrc -o $@ $< $(FUZZ_LIB_OBJ) -lpthread

# Each target runs FUZZ_SECONDS from its seeds; new inputs go to a scratch
# corpus in build/fuzz/corpus (the seeds stay small); crashes are written to
# build/fuzz/crash-* and should become files in corpus/fuzz/regress/<target>/.
# tests/fuzz/pgn.dict gives the mutator PGN's tokens; each target ends
# with one line: executions, coverage (edges) and features.  A release
# check runs longer: make fuzz FUZZ_SECONDS=3600.
FUZZ_DICT    ?= tests/fuzz/pgn.dict
fuzz-run: $(FUZZ_BINS)
	@for t in $(FUZZ_TARGETS); do \
	    mkdir -p $(FUZZ_DIR)/corpus/$$t; \
	    echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
	    $(FUZZ_DIR)/$$t -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=$(FUZZ_DIR)/ -print_final_stats=1 \
	        -dict=$(FUZZ_DICT) $(FUZZ_DIR)/corpus/$$t corpus/fuzz/$$t > $(FUZZ_DIR)/$$t.run.log 2>&1; \
	    st=$$?; \
	    execs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $(FUZZ_DIR)/$$t.run.log); \
	    cov=$$(grep -o 'cov: [0-9]* ft: [0-9]*' $(FUZZ_DIR)/$$t.run.log | tail -n 1); \
	    echo "fuzz: $$t: $${execs:-?} executions, $${cov:-no coverage line}"; \
	    [ $$st -eq 0 ] || { tail -n 30 $(FUZZ_DIR)/$$t.run.log; exit 1; }; \
	done

# Replays every seed and regression input once (no fuzzing).
fuzz-replay: $(FUZZ_BINS)
	@for t in $(FUZZ_TARGETS); do \
	    set -- corpus/fuzz/$$t/* corpus/fuzz/regress/$$t/*; \
	    files=; for f; do [ -f "$$f" ] && files="$$files $$f"; done; \
	    [ -n "$$files" ] || continue; \
	    $(FUZZ_DIR)/$$t $$files > $(FUZZ_DIR)/$$t.replay.log 2>&1 || { cat $(FUZZ_DIR)/$$t.replay.log; exit 1; }; \
	done

.PHONY: fuzz-build fuzz-run fuzz-replay
.SECONDARY: $(FUZZ_LIB_OBJ)
