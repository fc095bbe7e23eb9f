# Cargo Monitor — the two newcomer commands are `make run` and `make test`.
# Both create .venv and install everything they need on a fresh machine.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
export HF_HUB_OFFLINE := 1

.PHONY: docs cli-docs install tools kafka-jars otel-collector otel-sample llm-model run test test-fast check format lint typecheck unit integration perf perf-kafka perf-gate perf-startup bench-heldout samples clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info[:2] == (3, 11), "Python 3.11 is required"'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

## Run the monitor on the bundled sample traffic; serves /metrics until Ctrl-C.
run: $(STAMP)
	$(BIN)/cargo-monitor run --keep-serving

## System tools the tests use: prometheus + promtool and chromium, from Debian's packages.
## (Installed only when missing; needs root or sudo. The service is not started.)
tools:
	@if ! command -v promtool >/dev/null 2>&1 || ! command -v prometheus >/dev/null 2>&1; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  echo "installing Debian package prometheus (promtool, prometheus)"; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 $$SUDO apt-get install -y -qq --no-install-recommends prometheus; \
	fi
	@if ! command -v chromium >/dev/null 2>&1; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  echo "installing Debian package chromium (the browser test of the HTML reports)"; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends chromium; \
	fi

## The Kafka broker jars (Maven Central) for the stream tests; cached outside git.
kafka-jars:
	deploy/kafka/broker fetch

## The OpenTelemetry Collector (otlp in, kafka out and back), built once with the Collector
## builder from the Go module proxy (needs Go); cached outside git. See deploy/otel/.
otel-collector:
	deploy/otel/collector build

## Re-record the bundled OTLP sample (monitor/data/samples/otlp_traffic.jsonl): the
## instrumented test agent -> the Collector -> a broker on a spare port. See deploy/otel/.
otel-sample: $(STAMP) kafka-jars otel-collector
	$(BIN)/python deploy/otel/record_sample.py

## A real small model behind llama-cpp-python's OpenAI-compatible server, in its own
## venv (.venv-llm), for the `llm` tests. Builds llama.cpp from source once (minutes).
llm-model:
	PYTHON=$(PYTHON) deploy/llm/smollm2 install

## The whole suite: checks, unit tests, then the integration tests on real local
## services (Kafka broker, the OpenTelemetry Collector, Prometheus, the model server),
## installing them first (the instrumented test agent's packages are in the dev extra).
test: $(STAMP) tools kafka-jars otel-collector llm-model check docs unit integration

## Format check, lint and types; `make test-fast` is the unit tests alone (no services).
check: $(STAMP)
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/mypy

test-fast: unit

## The documentation site; --strict: a broken link or a missing page fails.
docs: $(STAMP)
	$(BIN)/mkdocs build --strict --quiet --site-dir build/site

## The command reference's help text, written into docs/cli.md from the parser.
cli-docs: $(STAMP)
	$(BIN)/python docs/hooks/cli.py

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy

## Unit tests on every core (pytest-xdist); no services.
unit: $(STAMP)
	$(BIN)/pytest -n auto tests/unit

integration: $(STAMP)
	$(BIN)/pytest tests/integration

## Speed: raw embedding vs. the evaluator end to end (embedded path).
perf: $(STAMP)
	$(BIN)/python -m benchmarks.throughput

## Speed on the Kafka path, on a local broker it starts and stops itself.
perf-kafka: $(STAMP) kafka-jars
	$(BIN)/python -m benchmarks.kafka_stream

## The gate's cost per question (retrieval + decision) for golden sets of 100 to 100k
## items, against the embedding's; exact and approximate (hnsw) search.
perf-gate: $(STAMP)
	$(BIN)/python -m benchmarks.gate_scale --search both

## Start-up time to the first judgment (`run`) and to a stream worker ready, split
## into imports, model load, golden index and first batch (starts a local broker).
perf-startup: $(STAMP) kafka-jars
	$(BIN)/python -m benchmarks.startup

## Judge quality on every committed seed set: Cargo-Bench with the structural judge on
## the public, foreign and 23 held-out sets (one `bench run --json` and `--items` each
## under out/bench/, BENCH_JOBS at a time; 30 to 40 minutes on 2 cores), then their
## table (out/bench/table.md), the README's headline figures.
BENCH_JOBS ?= 2
HELDOUT := 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23
bench-heldout: $(STAMP)
	mkdir -p out/bench
	printf '%s\n' public foreign $(HELDOUT) | xargs -P $(BENCH_JOBS) -I{} sh -c '\
	  case {} in \
	    public) src="--instances monitor/data/bench/instances.jsonl";; \
	    foreign) src="--seeds tests/data/foreign_seeds";; \
	    1) src="--seeds tests/data/heldout_seeds --draws 10 --gen-seed 2027";; \
	    *) src="--seeds tests/data/heldout{}_seeds --draws 10 --gen-seed 2027";; \
	  esac; \
	  $(BIN)/cargo-monitor bench run $$src --judge structural --json out/bench/{}.json \
	    --items out/bench/{}.items.jsonl > out/bench/{}.log 2>&1 \
	    && echo "bench {}: done" || { echo "bench {}: failed, see out/bench/{}.log"; exit 255; }'
	$(BIN)/cargo-monitor bench table --out out/bench/table.md \
	  "public seeds=out/bench/public.json" "8 other domains=out/bench/foreign.json" \
	  $(foreach n,$(HELDOUT),"set $(n)=out/bench/$(n).json") \
	  --group "sets 2–11=set 2,set 3,set 4,set 5,set 6,set 7,set 8,set 9,set 10,set 11" \
	  --group "sets 12–23=set 12,set 13,set 14,set 15,set 16,set 17,set 18,set 19,set 20,set 21,set 22,set 23"
	@cat out/bench/table.md

samples: $(STAMP)
	$(BIN)/cargo-monitor make-samples

clean:
	rm -rf $(VENV) .venv-llm out .pytest_cache .mypy_cache .ruff_cache
