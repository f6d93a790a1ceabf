# Parlance: `make run` starts the product standalone; `make test` runs every test.
SHELL := /bin/bash
.DEFAULT_GOAL := help

help:
	@echo "make run    start Parlance standalone (PGlite, in-memory bus) with demo data"
	@echo "make test   lint, type-check and run every test against real Postgres and Kafka"
	@echo "make up     run every service as its own process against local Postgres and Kafka"
	@echo "make bench  run the benchmarks under bench/"
	@echo "make proto  regenerate TypeScript from proto/"
