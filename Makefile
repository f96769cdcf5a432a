# warden's front door. `make demo` and `make test` install what is missing (Debian packages,
# Dawn from npm), build, and run. A second run with everything present spends seconds on set-up.
BUILD_DIR    ?= build
SAN_DIR      ?= build-sanitize
FUZZ_DIR     ?= build-fuzz
TSAN_DIR     ?= build-tsan
BUILD_TYPE   ?= RelWithDebInfo
JOBS         ?= $(shell nproc)
CTEST_JOBS   ?= $(JOBS)

.PHONY: all setup build demo smoke test test-sanitize test-tsan fuzz bench memcheck clean

all: build

setup:
	@scripts/setup.sh
	@scripts/fetch-dawn.sh $(CURDIR)/build/dawn
	@scripts/fetch-webgpu-tables.sh $(CURDIR)/build/webgpu-tables
	@scripts/fetch-dawn-abi-samples.sh $(CURDIR)/build/dawn-samples
	@scripts/fetch-uplot.sh $(CURDIR)/build/uplot
	@scripts/fetch-wesl-reference.sh $(CURDIR)/build/wesl-reference

# Optimised, with line tables (-g1) rather than full debug information: backtraces, valgrind
# and perf still name file and line, and the build takes a quarter less time (docs/adr/0036).
# Unity builds here and in the sanitizer tree: each batch of files parses the headers once
# (docs/adr/0040).
$(BUILD_DIR)/CMakeCache.txt:
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_UNITY_BUILD=ON \
	  -DWARDEN_DAWN_DIR=$(CURDIR)/build/dawn -DWARDEN_UPLOT_DIR=$(CURDIR)/build/uplot

build: setup $(BUILD_DIR)/CMakeCache.txt
	cmake --build $(BUILD_DIR) -j $(JOBS)

# The main job: the tile-map demo over Blue Marble through the Engine, with two device losses
# and a shader reload on purpose (README, "The demo"). Builds only the tool it runs.
DEMO_ARGS ?= --frames 600 --budget-mb 8 --lose-device-at 150,420 --reload-shader-at 240 --out out/demo
demo: setup $(BUILD_DIR)/CMakeCache.txt
	cmake --build $(BUILD_DIR) -j $(JOBS) --target warden_cli
	$(BUILD_DIR)/warden demo $(DEMO_ARGS)

smoke: build
	$(BUILD_DIR)/warden smoke

test: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(CTEST_JOBS)

# The same tests under AddressSanitizer + UndefinedBehaviorSanitizer. Dawn and Mesa are not
# instrumented; their own allocations are suppressed by name in tests/sanitizer/lsan.supp, so
# a Dawn object warden forgets to release is caught by the reference ledger (docs/adr/0007),
# which every test program runs, here as in `make test`.
# Line tables only (-g1), here and in the fuzz build: the reports still name file and line, and
# full debug information would only cost compile time.
$(SAN_DIR)/CMakeCache.txt:
	cmake -S . -B $(SAN_DIR) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g1" -DCMAKE_UNITY_BUILD=ON -DWARDEN_SANITIZE=ON -DWARDEN_BUILD_BENCH=OFF \
	  -DWARDEN_DAWN_DIR=$(CURDIR)/build/dawn -DWARDEN_UPLOT_DIR=$(CURDIR)/build/uplot

# intercept_tls_get_addr=0: LeakSanitizer's record of dynamic TLS (the TLS of dlopen()ed
# libraries: Dawn, Mesa, LLVM) came back as garbage in some builds and its tracer crashed
# reading it ("DTLS ... Tracer caught signal 11"). Without that record, memory reachable only
# from those libraries' TLS would be reported, not hidden; their allocations are suppressed by
# name anyway, and a leak in warden's code is still caught (checked with a deliberate leak).
test-sanitize: setup $(SAN_DIR)/CMakeCache.txt
	cmake --build $(SAN_DIR) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:intercept_tls_get_addr=0 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitizer/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  ctest --test-dir $(SAN_DIR) --output-on-failure -j $(CTEST_JOBS) -LE '^(docs|layers)$$' -E '^Messages\.'
# (The checks of the tree's text, its docs, layers and messages, run scripts and no code of warden's:
# `make test` runs them; here they would only lengthen CI.)

# The tests that run warden from several threads (tests/<layer>/*_threads_test.cpp, also part of
# `make test`) under clang's ThreadSanitizer, in a unity tree of their own that builds the library
# and those tests alone. Dawn and Mesa are not instrumented: tests/sanitizer/tsan.supp names
# their libraries and functions, never a frame of warden's. -O1 -g1 as in the fuzzing tree.
$(TSAN_DIR)/CMakeCache.txt:
	CC=clang CXX=clang++ cmake -S . -B $(TSAN_DIR) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DCMAKE_UNITY_BUILD=ON \
	  -DWARDEN_TSAN=ON -DWARDEN_BUILD_BENCH=OFF -DWARDEN_INSTALL=OFF \
	  -DWARDEN_DAWN_DIR=$(CURDIR)/build/dawn -DWARDEN_UPLOT_DIR=$(CURDIR)/build/uplot

test-tsan: setup $(TSAN_DIR)/CMakeCache.txt
	cmake --build $(TSAN_DIR) -j $(JOBS) --target test_threads
	TSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitizer/tsan.supp:halt_on_error=1:second_deadlock_stack=1 \
	  ctest --test-dir $(TSAN_DIR) --output-on-failure -j $(CTEST_JOBS)

# The libFuzzer targets (tests/fuzz/, docs/fuzzing.md), built with clang in their own folder and
# run one after another for FUZZ_SECONDS each, from their seed corpora. A failure stops the run
# and leaves the input in $(FUZZ_DIR)/artifacts/. CI runs `make fuzz FUZZ_SECONDS=10`; a longer
# run is the same command with a larger number. Without precompiled headers and one unit per
# file: the one build where a source file that forgot an include it needs fails to compile.
FUZZ_SECONDS ?= 60
$(FUZZ_DIR)/CMakeCache.txt:
	CC=clang CXX=clang++ cmake -S . -B $(FUZZ_DIR) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
	  -DWARDEN_FUZZ=ON -DWARDEN_PRECOMPILE_HEADERS=OFF -DWARDEN_BUILD_TESTS=OFF -DWARDEN_BUILD_BENCH=OFF -DWARDEN_BUILD_CLI=OFF -DWARDEN_INSTALL=OFF \
	  -DWARDEN_DAWN_DIR=$(CURDIR)/build/dawn -DWARDEN_UPLOT_DIR=$(CURDIR)/build/uplot

fuzz: setup $(FUZZ_DIR)/CMakeCache.txt
	cmake --build $(FUZZ_DIR) -j $(JOBS) --target fuzzers
	scripts/fuzz.sh $(FUZZ_DIR) $(FUZZ_SECONDS)

# The benchmark programs are not part of `make build` (docs/adr/0054): built here.
bench: build
	cmake --build $(BUILD_DIR) -j $(JOBS) --target benchmarks
	scripts/bench.sh $(BUILD_DIR)

memcheck: build
	scripts/memcheck.sh $(BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR)/CMakeFiles $(BUILD_DIR)/CMakeCache.txt $(SAN_DIR) $(TSAN_DIR) out
