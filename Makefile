# Parlance. Two commands on a fresh machine: `make run` and `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := help
# A young generation of 32 MiB semi-spaces (V8's default is 16): with many requests in flight their
# objects outlive a 16 MiB scavenge and are copied and promoted, which cost the dashboard up to
# half its node CPU (docs/architecture.md, "Node's heap"). The images set the same (deploy/docker/Dockerfile).
export NODE_OPTIONS ?= --enable-source-maps --max-semi-space-size=32
TSX := node --import tsx

.PHONY: help deps web run up down test lint typecheck proto proto-check bench infra eval

help:
	@echo "make run    start Parlance standalone (one process, PGlite, in-memory bus) with demo data, and print its URL and a demo login"
	@echo "make test   lint, type-check and run every test against real PostgreSQL and Kafka"
	@echo "make up     run every service as its own process, and the speech server (Whisper), against local PostgreSQL and Kafka"
	@echo "make down   stop what make up started (and the local PostgreSQL and Kafka)"
	@echo "make bench  run the benchmarks under bench/ and print medians"
	@echo "make eval   measure the evaluation engines on public labelled conversations (DATASETS=<dir>, ARGS=\"--only qmsum --limit 5\")"
	@echo "make proto  regenerate TypeScript from proto/"

deps:
	@scripts/ensure-deps.sh

web: deps
	@npm run build -w @parlance/web --silent

run: web
	@scripts/ensure-speech.sh
	@PARLANCE_MODE=standalone IDENTITY_DEMO_ACCOUNT=true DEMO_DATA=true $(TSX) services/host/src/main.ts

infra:
	@deploy/local/services up >/dev/null

up: web infra
	@scripts/ensure-speech.sh
	@scripts/up.sh start

down:
	@scripts/up.sh stop || true
	@deploy/local/services down

lint: deps
	npx eslint . --max-warnings=0

typecheck: deps
	npx tsc -p tsconfig.json
	npx tsc -p web/tsconfig.json

proto: deps
	npm run generate -w @parlance/proto

proto-check: deps
	npm run check -w @parlance/proto

test: web
	@scripts/test.sh

bench: web infra
	@scripts/bench.sh

eval: deps
	@DATASETS="$(DATASETS)" scripts/eval.sh $(ARGS)
