# geocluster — the commands a new user runs. `make demo` and `make test` install what is
# missing first (GEOS, PROJ and pkg-config from Debian's packages; for `make test` also
# chromium, a font and rsvg-convert, which the report tests use; see scripts/setup.sh).
SWIFT ?= swift
OUT ?= reports/out
DEMO_INPUT ?= datasets/seoul-5k.csv
BIN = .build/release/geocluster

.PHONY: setup setup-test build demo test bench peers clean

setup:
	@scripts/setup.sh

setup-test:
	@scripts/setup.sh --test

# The release binary carries the Swift runtime and libraries (--static-swift-stdlib): it starts
# without the loader resolving a dozen shared libraries' symbols (a 20-point `cluster` run
# 11.2 -> 8.0 ms, medians of 40) and runs where no Swift toolchain is installed.
build: setup
	$(SWIFT) build -c release --static-swift-stdlib --product geocluster

# The main job on the embedded default data: cluster the committed Seoul listings with
# HDBSCAN (stage timings on stderr), score the labels against the generator's ground truth,
# then outline every cluster with a concave hull.
demo: build
	@mkdir -p $(OUT)
	$(BIN) cluster $(DEMO_INPUT) --min-cluster-size 30 --min-samples 15 \
		--output $(OUT)/seoul-labels.csv --timings
	$(BIN) score --truth $(DEMO_INPUT) --labels $(OUT)/seoul-labels.csv --noise as-cluster
	$(BIN) hulls $(DEMO_INPUT) --labels $(OUT)/seoul-labels.csv --crs EPSG:5179 \
		--output $(OUT)/seoul-hulls.geojson

test: setup-test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Benchmarks (ordo-one/package-benchmark), release builds, in their own package.
bench: setup
	cd Benchmarks && $(SWIFT) package --disable-sandbox benchmark

clean:
	rm -rf .build $(OUT)
