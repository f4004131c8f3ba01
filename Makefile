# bogglemax front doors. `make proof-3x3` runs the main job, `make test` the tests.
CARGO ?= cargo
BIN := target/release/bogglemax

.PHONY: build test bench lint
build:
	$(CARGO) build --release

# The tests build with the crash points (src/failpoint.rs) into their own target folder, so
# target/release/bogglemax, the binary the proofs and clusters run, never has them.
test:
	CARGO_TARGET_DIR=target/failpoints $(CARGO) test --release --features failpoints

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --release --all-targets --all-features -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps --document-private-items

bench: build
	$(CARGO) bench --bench solver

# Proofs: WORDLIST=, SCORE=, SHARDS=, JOBS= (and PARTITION=, RUN=) override the defaults of
# scripts/proof.sh. Rerunning resumes an interrupted run.
.PHONY: proof-3x3 proof-3x4 proof-4x4
proof-3x3 proof-3x4 proof-4x4: build
	WORDLIST="$(WORDLIST)" SCORE="$(SCORE)" SHARDS="$(SHARDS)" JOBS="$(JOBS)" scripts/proof.sh $(@:proof-%=%)

# What a proof would cost, without running it: `bogglemax estimate` with proof.sh's settings
# (ESTIMATE_BUDGET seconds of sampling, default 180).
.PHONY: estimate-3x3 estimate-3x4 estimate-4x4
estimate-3x3 estimate-3x4 estimate-4x4: build
	ESTIMATE_ONLY=1 WORDLIST="$(WORDLIST)" SCORE="$(SCORE)" SHARDS="$(SHARDS)" JOBS="$(JOBS)" scripts/proof.sh $(@:estimate-%=%)
