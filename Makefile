# Entry points for a fresh Debian 12 machine:
#   make run       installs missing packages, builds, simulates the default workload
#   make test      installs missing packages, builds, runs the whole test suite (ctest)
#   make test-sanitize  the same suite under AddressSanitizer and UndefinedBehaviorSanitizer
#   make validate  the paper reproductions (validation/flowcut, validation/staircase),
#                  then the emulated cluster end to end (root): set up, calibrate, run
#                  and predict the accuracy suite and its held-out cases, report, tear down (validation/testbed)
BUILD_DIR ?= build
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc)

RUN_PLATFORM ?= platforms/epyc-rome-2node.yaml
RUN_PATTERN  ?= traces/samples/halo-256.pattern
RUN_MODEL    ?= maxmin

.PHONY: all deps configure build run test test-sanitize fuzz bench validate clean

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) > /dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	$(BUILD_DIR)/bin/contend simulate --platform $(RUN_PLATFORM) --pattern $(RUN_PATTERN) --model $(RUN_MODEL) --mapping block

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

# The whole ctest suite under ASan, LSan and UBSan (build-sanitize/, a Debug
# build at -O1 so that assertions stay on), less the emulated cluster; any
# sanitizer report fails it (tests/sanitize/run.sh). Run by .ci/run.
test-sanitize: deps
	@cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DCONTEND_SANITIZE=ON > /dev/null
	@cmake --build build-sanitize -j $(JOBS)
	tests/sanitize/run.sh build-sanitize $(JOBS)

# Each fuzz target of tests/fuzz for FUZZ_SECONDS (clang, libFuzzer, ASan,
# UBSan; build-fuzz/); what it finds joins tests/fuzz/corpus/, which
# `make test` replays (ctest fuzz.*). Not part of CI.
FUZZ_SECONDS ?= 600
fuzz: deps
	@command -v clang++ > /dev/null || { echo "make fuzz needs clang and libclang-rt-14-dev (apt-get install clang libclang-rt-14-dev)"; exit 1; }
	@CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCONTEND_FUZZ=ON \
		-DFUZZ_SECONDS=$(FUZZ_SECONDS) > /dev/null
	@cmake --build build-fuzz -j $(JOBS) --target fuzz_units fuzz_platform fuzz_pattern fuzz_mapping fuzz_ti_line fuzz_csv fuzz_otf2
	@cmake --build build-fuzz -j 1 --target fuzz-run

bench: build
	bench/engine_scaling.sh --models staircase
	bench/engine_scaling.sh --models maxmin --ranks 512 --time-limit 300
	bench/flowcut_scaling.sh --ranks "512 2048"
	bench/taulop_bcast.sh
	bench/tracer_overhead.sh
	bench/ti_replay_memory.sh
	bench/scale.sh
	bench/ti_replay_scale.sh
	bench/timeline_overhead.sh
	bench/attribution.sh --models "staircase flowcut maxmin"
	bench/mapping_search.sh
	bench/sweep_throughput.sh
	bench/whole_machine.sh

validate: build
	validation/flowcut/run.sh $(BUILD_DIR)/bin/contend
	validation/staircase/run.sh $(BUILD_DIR)/bin/contend
	validation/testbed/validate.sh $(BUILD_DIR) full

clean:
	rm -rf $(BUILD_DIR)
