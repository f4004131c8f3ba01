# bogglemax front doors. `make proof-3x3` runs the main job, `make test` the tests.
CARGO ?= cargo
BIN := target/release/bogglemax

.PHONY: build test bench lint
build:
	$(CARGO) build --release

test:
	$(CARGO) test --release

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --release --all-targets -- -D warnings

bench: build
	$(CARGO) bench --bench solver
