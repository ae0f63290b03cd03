# CaptureKit: `make demo` and `make test` are the two commands a fresh Debian 12 machine needs.
SWIFT ?= swift

.PHONY: deps build demo test docs bench clean

deps:
	@SWIFT=$(SWIFT) scripts/install-deps.sh

build: deps
	$(SWIFT) build

# Installs what is missing, builds, and writes photo.jpg from the virtual camera.
demo: deps
	$(SWIFT) build --product capture
	@echo "wrote $$(.build/debug/capture snap -d virtual -o photo.jpg --orientation portrait --force)"

# Installs what is missing, builds everything (library, commands, examples, tests) once, runs every test
# in parallel (scripts/run-tests.sh: each test has devices of its own, a CaptureContext; the suites
# that share something say what and run one test at a time).
# Then builds the documentation, failing on any DocC warning (a separate step: `swift test` holds
# the build folder that generate-documentation needs).
test: deps
	$(SWIFT) build --build-tests
	SWIFT=$(SWIFT) scripts/run-tests.sh
	$(DOCS)

# The DocC archive of the CaptureKit module, .build/plugins/Swift-DocC/outputs/CaptureKit.doccarchive;
# a warning (a broken symbol link, say) fails it.
DOCS = $(SWIFT) package generate-documentation --target CaptureKit --warnings-as-errors
docs: deps
	$(DOCS)

# Benchmarks against gst-launch-1.0 in one run; figures go to BENCHMARKS.md by hand. The Swift
# runtime is linked statically: it saves ~8 ms of dynamic linking per process.
bench: deps
	$(SWIFT) build -c release --static-swift-stdlib --product capture-bench
	$(SWIFT) build -c release --static-swift-stdlib --product capture
	.build/release/capture-bench all

clean:
	rm -rf .build photo.jpg
