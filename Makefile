# hireloop — run `make up` to start everything, `make test` to run every test.
SHELL := /usr/bin/env bash
.DEFAULT_GOAL := help
ARGS ?=

.PHONY: help up down test test-unit test-int test-e2e chaos lint format typecheck migrate topics token eval logs replay bench

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

up: ## install, start Kafka (+ Postgres if none), migrate, create topics, start every service
	@scripts/up.sh

down: ## stop exactly what `make up` started
	@scripts/down.sh

test: ## type-check, lint and run every test (unit, integration, end-to-end) against real Kafka and Postgres
	@scripts/test.sh

test-unit: ## unit tests only
	@scripts/test.sh --project unit

test-int: ## integration tests only (real Kafka and Postgres)
	@scripts/test.sh --project int

test-e2e: ## end-to-end tests only (every service its own process)
	@scripts/test.sh --project e2e

chaos: ## break things on purpose (worker and service kills, duplicates, poison, bad input, attackers) and print what survived
	@CHAOS=full scripts/test.sh --project e2e test/chaos.e2e.spec.ts

typecheck: ## TypeScript, strict
	@pnpm -s typecheck

lint: ## biome: formatting and lint rules
	@pnpm -s lint

format: ## rewrite files in the project's format
	@pnpm -s format

migrate: ## apply the Postgres migrations
	@pnpm -s hireloop migrate

topics: ## create the topics of the registry
	@pnpm -s hireloop topics

token: ## print a dev JWT: make token ARGS='--user alice --org acme'
	@pnpm -s hireloop token $(if $(ARGS),$(ARGS),--user dev --org acme)

replay: ## rebuild projections from facts; ARGS='--verify' compares, '--check-chain' checks the hash chain, '--execution <id>' prints a timeline
	@pnpm -s hireloop replay $(ARGS)

bench: ## the platform against the machine's floors, through the public socket: make bench [ARGS=--short]
	@scripts/bench.sh $(ARGS)

eval: ## run a golden set through the creation graph, then print the run log: make eval [GOLDEN=../shared/golden] [ORG=acme]
	@node --import tsx services/graph-creator/src/eval.ts $(if $(GOLDEN),--golden $(GOLDEN),)
	@echo
	@pnpm -s hireloop runs stats --org $(or $(ORG),acme) || echo 'run log: not available (the database at DATABASE_URL is not migrated: make up)'

logs: ## follow the services' logs
	@tail -F .run/logs/*.log
