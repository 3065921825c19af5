# geocluster — the commands a new user runs. `make demo` and `make test` install what is
# missing first (GEOS, PROJ and pkg-config from Debian's packages; for `make test` also
# chromium, a font and rsvg-convert, which the report tests use; see scripts/setup.sh).
SWIFT ?= swift
OUT ?= reports
BIN = .build/release/geocluster

.PHONY: setup setup-test build demo serve serve-bench test test-slowest consumer docs warnings structure bench bench-check check peers python engines wheel wheel-check clean

setup:
	@scripts/setup.sh

setup-test:
	@scripts/setup.sh --test

# The release binary carries the Swift runtime and libraries (--static-swift-stdlib): it starts
# without the loader resolving a dozen shared libraries' symbols (docs/performance.md) and runs
# where no Swift toolchain is installed.
build: setup
	$(SWIFT) build -c release --static-swift-stdlib --product geocluster

# The main job on the embedded default data: the benchmark of HDBSCAN, DBSCAN and grid
# clustering on the seeded `seoul` scenario at 10k and 100k listings (generated once into
# datasets/cache/), 3 repeats, each cell in its own process; writes $(OUT)/index.html, the CSV
# tables, maps and condensed-tree plots. Peers: `make peers`, or add --peers (docs/commands.md).
demo: build
	$(BIN) bench --scenarios seoul --sizes 10k,100k --repeat 3 --out $(OUT)
	@echo "report: $(OUT)/index.html (tables: $(OUT)/summary.csv, $(OUT)/runs.csv; columns: $(OUT)/README.md)"

# geocluster serve on the embedded default data (docs/serve.md): the release server, MapLibre GL
# JS for its map page (scripts/serve/setup.sh: PyPI's maplibre wheel, pinned and checksummed),
# a key made once into datasets/cache/serve.key; the map at http://127.0.0.1:8080/ until Ctrl-C.
# SERVE_ARGS adds options (SERVE_ARGS="--port 9000").
serve: build
	@scripts/serve/setup.sh
	$(SWIFT) build -c release --static-swift-stdlib --product geocluster-serve
	@mkdir -p datasets/cache
	@[ -f datasets/cache/serve.key ] || $(BIN) pins-key -o datasets/cache/serve.key
	$(BIN) serve --key-file datasets/cache/serve.key $(SERVE_ARGS)

# The server under load on seoul 1M listings (generated once into datasets/cache/): wrk over the
# tiles of viewports at zooms 10-17, a reload under that load, the time to fill a viewport, peak
# memory (scripts/serve/bench.py; about 2 minutes after the build). Installs wrk if missing.
SERVE_BENCH_DATA = datasets/cache/seoul-1M-seed1.csv
serve-bench: build
	@scripts/serve/setup.sh --bench
	$(SWIFT) build -c release --static-swift-stdlib --product geocluster-serve
	@mkdir -p datasets/cache
	@[ -f $(SERVE_BENCH_DATA) ] || $(BIN) generate --scenario seoul --count 1000000 --seed 1 -o $(SERVE_BENCH_DATA)
	python3 scripts/serve/bench.py $(SERVE_BENCH_DATA)

# The full build and test output goes to .build/test.log; the summary lists failures and the
# result line. test-slowest runs the tests one at a time and lists the ten slowest.
test: setup-test
	@SWIFT=$(SWIFT) scripts/test-summary.sh

test-slowest: setup-test
	@SWIFT=$(SWIFT) scripts/test-summary.sh --serial

# The pins product as an app embeds it: Examples/MapApp, copied to a temporary folder as a
# package of its own that depends on this checkout's GeoclusterPins product only, built with
# `swift build -v` (timed; the log must show no C target compiled and no PROJ or GEOS header
# read) and run (its output checked); first, the imports of every source of Pins and
# ClusterCore (only ClusterCore, Synchronization, Dispatch). scripts/dev/consumer.sh says more.
consumer:
	@SWIFT=$(SWIFT) scripts/dev/consumer.sh

# The DocC documentation of Pins and ClusterCore (swift-docc-plugin), failing on any warning
# line in docc's output or an article code block that differs from Examples/MapApp.
docs:
	@SWIFT=$(SWIFT) scripts/dev/docs.sh

# No compiler warning in this repository's code (Sources, Tests, Benchmarks; dependencies'
# checkouts aside) in the logs of `make test`'s build and of bench-check's benchmark build
# (where it exists). `make test` and `make bench-check` run the same check on their own logs
# and fail on a warning. The logs are complete only for builds from scratch (CI's fresh clone):
# an incremental build prints the warnings of the files it recompiled.
warnings:
	@scripts/dev/warnings.sh .build/test.log $(wildcard .build/bench-build.log)

# The house rules a newcomer relies on (docs/architecture.md): no function over 120 lines and no
# Swift file over 600 (generated tables aside) in Sources, no type name declared twice, a README
# of at most 350 lines (the manual is docs/), and every relative link in README.md and docs/
# resolving; the module map of docs/architecture.md and the commands and flags the docs name
# against Package.swift and the built executables (scripts/dev/check_docs.py); the command
# line importing its argument parser and the request layer only (scripts/dev/check_imports.sh).
structure: setup
	@scripts/dev/sizes.py --top 3 --max-function 120 --max-file 600 --unique-types
	@lines=$$(wc -l < README.md); [ $$lines -le 350 ] || { echo "README.md has $$lines lines; at most 350 (move the manual to docs/)"; exit 1; }
	@scripts/dev/check_links.py
	@mkdir -p .build && for product in geocluster geocluster-serve; do \
		$(SWIFT) build --product $$product > .build/structure-build.log 2>&1 || { tail -30 .build/structure-build.log; exit 1; }; done
	@SWIFT=$(SWIFT) scripts/dev/check_docs.py .build/debug/geocluster .build/debug/geocluster-serve
	@ALLOWED='ArgumentParser|CommandLineSupport|Glibc|Darwin|Dispatch' scripts/dev/check_imports.sh Sources/geocluster

# The same benchmark with the Python peers side by side (installs them from PyPI first): the
# README's "Speed and memory" table. scikit-learn's quadratic HDBSCAN only at 10k (at 100k a
# repeat takes minutes).
peers: build
	scripts/peers/install.sh
	$(BIN) bench --scenarios seoul --sizes 10k,100k --repeat 3 --out $(OUT) --sklearn-max-n 20000 \
		--peers sklearn,hdbscan,fast_hdbscan,hdbscan_rs,sklearn_dbscan,supercluster

# The regression gate: this build against the committed baseline (reports/baseline.json):
# exact results, instruction and allocation counts per stage (valgrind), calibrated CPU time.
# Exit 0 pass, 2 regression, 3 improvement (refresh the baseline on purpose: docs/gate.md).
check: build setup-test
	$(BIN) check --baseline reports/baseline.json

# Benchmarks (ordo-one/package-benchmark), release builds, in their own package.
bench: setup
	cd Benchmarks && $(SWIFT) package --disable-sandbox benchmark

# The benchmarks against their committed static thresholds (Benchmarks/Thresholds/, p90).
# package-benchmark's plugin ends with "error: benchmarkThresholdImprovement" when there are only
# improvements and "error: benchmarkThresholdRegression" on a regression, but `swift package`
# exits 1 for both (measured with package-benchmark 1.38), so the two are told apart by that
# line: improvements only pass here. A regression has to reproduce: scripts/dev/bench_check.sh
# runs each benchmark found worse once more on its own and fails only if it is worse again (a
# slow spell of the shared machine can double a short benchmark's p90). Refresh: cd Benchmarks && swift package --disable-sandbox
# --allow-writing-to-package-directory benchmark thresholds update
# The plugin shows the compiler's output only when its build fails, so the benchmarks are built
# first with `swift build -c release`, its log in .build/bench-build.log (the plugin then finds
# geocluster and the benchmark targets built and builds only its own tools); a compiler warning
# in that log from this repository's code fails the target after the check
# (scripts/dev/warnings.sh).
bench-check: setup
	@mkdir -p .build
	cd Benchmarks && $(SWIFT) build -c release > ../.build/bench-build.log 2>&1 || { cat ../.build/bench-build.log; exit 1; }
	SWIFT=$(SWIFT) scripts/dev/bench_check.sh .build/bench-check.log
	@scripts/dev/warnings.sh .build/bench-build.log

# The Python package (python/, docs/python.md): a venv under .build/ (no root pip), the pinned
# test requirements, then `pip install ./python` exactly as a user runs it (the in-tree backend
# builds the C library in release mode with the Swift runtime linked in; its log, which must
# hold no compiler warning of ours, is .build/python-build.log), then pytest on the installed
# package: the scikit-learn fixtures, bad input, parameters, threads, check_estimator, and the
# PinIndex against the CLI's `pins` (so the CLI is built first; after `make test`, nothing to do);
# then, with the same venv (which also has quitefastmst), the bench peers' cell script, the
# privacy attack script's tests (scripts/privacy/), the server's tests from outside
# (scripts/serve/test_serve.py: a real geocluster-serve process, its tiles decoded by PyPI's
# mapbox-vector-tile against `pins`, the map page clicked in headless chromium; MapLibre GL JS
# installed first by scripts/serve/setup.sh) and the `bench --peers` test on the sphere, which
# `make test` skips without those packages.
PYVENV = .build/python-venv
python:
	@mkdir -p .build
	$(SWIFT) build --product geocluster
	$(SWIFT) build --product geocluster-serve
	scripts/serve/setup.sh
	python3 -m venv $(PYVENV)
	$(PYVENV)/bin/pip install -q -r python/requirements-test.txt
	SWIFT=$(SWIFT) $(PYVENV)/bin/pip install -v --no-deps --force-reinstall ./python > .build/python-build.log 2>&1 \
		|| { tail -40 .build/python-build.log; exit 1; }
	@scripts/dev/warnings.sh .build/python-build.log
	env -u PYTHONPATH -u GEOCLUSTER_CAPI_LIBRARY GEOCLUSTER_CLI=.build/debug/geocluster $(PYVENV)/bin/pytest -q python/tests
	env -u PYTHONPATH GEOCLUSTER_CLI=.build/debug/geocluster $(PYVENV)/bin/pytest -q scripts/peers/test_peer_cell.py
	env -u PYTHONPATH GEOCLUSTER_CLI=.build/debug/geocluster $(PYVENV)/bin/pytest -q -p no:cacheprovider scripts/privacy/test_attack.py
	env -u PYTHONPATH GEOCLUSTER_CLI=.build/debug/geocluster $(PYVENV)/bin/pytest -q -p no:cacheprovider scripts/serve/test_serve.py
	GEOCLUSTER_PEERS_PYTHON=$(abspath $(PYVENV))/bin/python $(SWIFT) test --filter "GeodesicPeersCLITests|FeaturePeersCLITests"

# The Spark and Dask engines (docs/engines.md): the venv of `make python`, with the engines'
# pinned requirements from PyPI (python/requirements-engines.txt) besides the test ones, the
# package installed as `make python` installs it (Spark's executors import it from the venv),
# then the engine tests: the tiles (no engine), Dask on a LocalCluster of two worker
# processes, and Spark in local[2] and on a standalone master with two workers on loopback.
# Spark needs java on PATH: without it its tests are skipped, and this says so. CI (.ci/run) runs it.
engines:
	@mkdir -p .build
	python3 -m venv $(PYVENV)
	$(PYVENV)/bin/pip install -q -r python/requirements-test.txt -r python/requirements-engines.txt
	SWIFT=$(SWIFT) $(PYVENV)/bin/pip install -v --no-deps --force-reinstall ./python > .build/python-build.log 2>&1 \
		|| { tail -40 .build/python-build.log; exit 1; }
	@scripts/dev/warnings.sh .build/python-build.log
	@command -v java > /dev/null || echo "make engines: java is not on PATH, so the Spark tests are skipped" \
		"(Debian: apt-get install openjdk-17-jre-headless)"
	env -u PYTHONPATH -u GEOCLUSTER_CAPI_LIBRARY $(PYVENV)/bin/pytest -q -rs -p no:cacheprovider \
		python/tests/test_engines_tiles.py python/tests/test_engines_dask.py python/tests/test_engines_spark.py

# A wheel and an sdist for PyPI (docs/python.md, Installing), into .build/dist/: `python -m build`
# (python/requirements-wheel.txt, in a venv of its own) builds the sdist, then the wheel from
# the unpacked sdist, its library compiled from this checkout's sources (GEOCLUSTER_SWIFT_ROOT:
# the same files the sdist carries under swift/, and the same scratch folder `pip install
# ./python` uses, so after `make python` nothing is compiled twice); SwiftPM then loads the
# sdist's own package (`swift package describe`: every target's folder is there). auditwheel
# gives the wheel its manylinux tag. wheel-check installs that wheel into a fresh venv and runs
# the tests with no Swift toolchain on PATH (the CLI the PinIndex tests compare with is the
# binary `make python` built).
WHEELVENV = .build/wheel-venv
wheel:
	python3 -m venv $(WHEELVENV)
	$(WHEELVENV)/bin/pip install -q -r python/requirements-wheel.txt
	rm -rf .build/dist .build/dist-raw .build/sdist-check
	GEOCLUSTER_SWIFT_ROOT=$(CURDIR) SWIFT=$$(command -v $(SWIFT)) $(WHEELVENV)/bin/python -m build --outdir .build/dist-raw python \
		> .build/wheel-build.log 2>&1 || { tail -40 .build/wheel-build.log; exit 1; }
	@scripts/dev/warnings.sh .build/wheel-build.log
	mkdir -p .build/sdist-check && tar -xzf .build/dist-raw/*.tar.gz -C .build/sdist-check
	cd .build/sdist-check/*/swift && $(SWIFT) package describe > ../../describe.txt 2>&1 \
		|| { tail -20 ../../describe.txt; echo "the sdist's Swift package does not load"; exit 1; }
	PATH="$(abspath $(WHEELVENV))/bin:$$PATH" auditwheel repair -w .build/dist .build/dist-raw/*.whl
	cp .build/dist-raw/*.tar.gz .build/dist/
	@ls -l .build/dist

WHEELTEST = .build/wheel-test
wheel-check: wheel
	rm -rf $(WHEELTEST) && python3 -m venv $(WHEELTEST)
	$(WHEELTEST)/bin/pip install -q -r python/requirements-test.txt
	$(WHEELTEST)/bin/pip install -q --no-deps .build/dist/geocluster_hdbscan-*-manylinux_*.whl
	env -u PYTHONPATH -u GEOCLUSTER_CAPI_LIBRARY -u SWIFT PATH=$$(printf '%s' "$$PATH" | tr ':' '\n' \
		| grep -v -x "$$(dirname "$$(command -v $(SWIFT))")" | paste -sd:) GEOCLUSTER_EXPECT_NO_SWIFT=1 \
		GEOCLUSTER_CLI=.build/debug/geocluster $(WHEELTEST)/bin/pytest -q python/tests

clean:
	rm -rf .build
