# Haven: the few commands a person needs. See README.md.
SHELL := /bin/bash
.DEFAULT_GOAL := help

NPM_STAMP := node_modules/.haven-installed
TSX := node --import tsx
JEST_RESULTS := .haven/jest-results.json
# buf, built from its Go module into the shared cache (never committed): `make proto` and the contract checks.
BUF_VERSION := v1.75.0
HAVEN_BIN := $(HOME)/.cache/haven/bin
BUF := $(HAVEN_BIN)/buf-$(BUF_VERSION)

.PHONY: test-servers test-servers-down test-area stripe-mock help install chromium provision dev down status test check lint format typecheck supergraph supergraph-check proto proto-check codegen codegen-check docs web-build test-repeat test-unit test-integration test-browser bench clean docker-engine images compose-smoke k8s-check engine-up engine-down monitoring-check

help: ## List the commands
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-18s %s\n", $$1, $$2}'

# --prefer-offline: packages already in npm's cache are taken without asking the registry again; a cold
# cache still fetches everything.
# npm install, not npm ci: a lockfile made on one platform lacks other platforms' optional
# binaries (e.g. @swc/core-darwin-arm64), which npm ci refuses; install keeps the locked versions.
$(NPM_STAMP): package.json package-lock.json */package.json services/*/package.json
	npm install --prefer-offline --no-audit --no-fund --loglevel=error
	@touch $@

install: $(NPM_STAMP) chromium ## Install npm packages and Debian's Chromium (for browser tests)

chromium: ## Debian's Chromium at /usr/bin/chromium, for the browser tests
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "Browser tests need Debian's Chromium: sudo apt-get install chromium" >&2; exit 1; fi; \
	fi

provision: $(NPM_STAMP) ## Fetch the embedded database and Kafka into the cache (idempotent)
	$(TSX) tools/infra/cli.ts provision

dev: $(NPM_STAMP) ## Start everything on loopback and print the URLs (Ctrl-C stops Haven)
	$(TSX) tools/dev/cli.ts up

down: $(NPM_STAMP) ## Stop the dev infrastructure (database, Kafka, mail catcher, trace viewer)
	$(TSX) tools/dev/cli.ts down

status: $(NPM_STAMP) ## Health of the dev infrastructure
	$(TSX) tools/infra/cli.ts status

lint: $(NPM_STAMP) ## ESLint and Prettier
	npx eslint --max-warnings=0 .
	npx prettier --check --log-level=warn .

format: $(NPM_STAMP) ## Rewrite files with Prettier
	npx prettier --write --log-level=warn .

typecheck: $(NPM_STAMP) ## Strict TypeScript, services and web
	npx tsc -p tsconfig.json --noEmit
	npx tsc -p web/tsconfig.json --noEmit

supergraph: $(NPM_STAMP) ## Recompose gateway/supergraph.graphql from the subgraph schemas
	$(TSX) gateway/scripts/compose-supergraph.ts

supergraph-check: $(NPM_STAMP) ## Fail when the checked-in supergraph is out of date
	$(TSX) gateway/scripts/compose-supergraph.ts --check

# Generated GraphQL types: each service's resolver types and the operations services ask each other
# (codegen.ts), and the web app's operation types when the web workspace has a codegen script. The check
# regenerates into a temporary folder and compares every *.generated.ts it writes.
web_script = $(shell node -e "process.stdout.write(require('./web/package.json').scripts?.['$(1)'] ? 'yes' : '')")

codegen: $(NPM_STAMP) ## Regenerate GraphQL types (services' resolvers and calls between services; web operations) after a schema or operation change
	npx graphql-codegen --config codegen.ts
	@if [ -n "$(call web_script,codegen)" ]; then npm run -w web codegen; fi

codegen-check: $(NPM_STAMP) ## Fail when generated GraphQL types are stale (a schema changed without make codegen)
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	  HAVEN_CODEGEN_OUT=$$tmp npx graphql-codegen --config codegen.ts || exit 1; \
	  stale=0; for generated in $$(cd $$tmp && find . -name '*.generated.ts' | sed 's#^\./##' | sort); do \
	    if ! cmp -s "$$tmp/$$generated" "$$generated"; then echo "stale: $$generated" >&2; stale=1; fi; \
	  done; \
	  if [ $$stale -ne 0 ]; then echo 'Generated GraphQL types are out of date: run `make codegen` and commit them.' >&2; exit 1; fi
	@if [ -n "$(call web_script,codegen-check)" ]; then npm run -w web codegen-check; fi
	@echo 'generated GraphQL types are up to date'

docs: $(NPM_STAMP) ## Regenerate docs/configuration.md from the environment schemas (after a config variable changes)
	$(TSX) tools/docs/configuration.ts

web-build: $(NPM_STAMP) ## Build the web app into web/dist (served by the gateway)
	npm run -w web build --silent

$(BUF):
	@mkdir -p $(HAVEN_BIN)/.buf-build
	GOBIN=$(HAVEN_BIN)/.buf-build go install github.com/bufbuild/buf/cmd/buf@$(BUF_VERSION)
	mv $(HAVEN_BIN)/.buf-build/buf $@

# stripe-mock, Stripe's API mock, built from its Go module into the shared cache (the billing tests that use the SDK).
STRIPE_MOCK := $(HAVEN_BIN)/stripe-mock
STRIPE_MOCK_VERSION := v0.203.0

stripe-mock: $(STRIPE_MOCK) ## Build stripe-mock (go install) into the cache for the Stripe tests

$(STRIPE_MOCK):
	@mkdir -p $(HAVEN_BIN)/.stripe-mock-build
	GOBIN=$(HAVEN_BIN)/.stripe-mock-build go install github.com/stripe/stripe-mock@$(STRIPE_MOCK_VERSION)
	mv $(HAVEN_BIN)/.stripe-mock-build/stripe-mock $@

# promtool, Prometheus's rule checker, built from its Go module into the shared cache: `make monitoring-check`.
# v0.316.0 is Prometheus 3.16 (its go.mod asks for Go 1.26.7). remove_all_sd leaves out the service-discovery
# plugins and their cloud SDKs (AWS, Azure, GCE, ...), which rule checks and rule tests never use: a shorter build.
PROMTOOL_VERSION := v0.316.0
PROMTOOL := $(HAVEN_BIN)/promtool-$(PROMTOOL_VERSION)

$(PROMTOOL):
	@mkdir -p $(HAVEN_BIN)/.promtool-build
	GOBIN=$(HAVEN_BIN)/.promtool-build go install -tags remove_all_sd github.com/prometheus/prometheus/cmd/promtool@$(PROMTOOL_VERSION)
	mv $(HAVEN_BIN)/.promtool-build/promtool $@

monitoring-check: $(PROMTOOL) ## promtool check rules and promtool test rules over deploy/monitoring's alert rules; the scrape configuration
	$(PROMTOOL) check rules deploy/monitoring/haven-alerts.yaml
	$(PROMTOOL) test rules deploy/monitoring/haven-alerts.test.yaml
	$(PROMTOOL) check config --syntax-only deploy/monitoring/prometheus.yml

proto: $(NPM_STAMP) $(BUF) ## Regenerate proto/src/gen from proto/events
	cd proto && PATH="$(CURDIR)/node_modules/.bin:$$PATH" $(BUF) generate

# Against main's contracts, read from the repository's own git store (also from a worktree). Reviewed
# exceptions: proto/buf.yaml breaking.ignore_only, each explained in proto/breaking-exceptions.md.
proto-check: $(BUF) ## buf lint, and buf breaking against main
	cd proto && $(BUF) lint
	cd proto && $(BUF) breaking --against "$$(git rev-parse --path-format=absolute --git-common-dir)#branch=main,subdir=proto"

check: lint typecheck supergraph-check codegen-check proto-check monitoring-check ## Lint, typecheck, the supergraph and generated-types checks, buf lint and breaking, the alert rules

# The whole suite, stage by stage: set-up, checks, the web build, then two stages side by side (both mostly wait on
# servers, so together they use the two cores better than one after the other): one jest run (unit, integration
# against the real embedded database/Kafka/maildev, browser) with TEST_WORKERS workers, each with its own servers,
# and the container stage (tools/containers/stage.ts: the Docker engine, every image, the outbox, the browser
# journey and one test per service on testcontainers, then the compose smoke once jest has finished, so that starting
# the whole stack never starves a browser test; a machine where the engine cannot start
# gets a loud message and a counted failure; its output is shown after jest's). It ends with each stage's time,
# the ten slowest test files, a warning past the budget (HAVEN_TEST_BUDGET_S), and the plain "N passed, N failed"
# summary CI reads, over both test stages. --forceExit: a test that fails half-way may leave a client open, and
# jest would then wait for it forever instead of reporting; the servers are stopped by the global teardown.
# Three workers, three worlds: the two cores are busy without starving the container stage beside them.
TEST_WORKERS ?= 3
STAGE_TIMES := .haven/stage-times.tsv
CONTAINER_STAGE_LOG := .haven/container-stage.log
# Written when the jest stage ends: the container stage starts the compose smoke only then (tools/containers/stage.ts).
JEST_DONE := .haven/jest-stage-done
# $(call timed,<stage>,<command>): runs the command, appends "<stage> <start> <end> <exit status>" to STAGE_TIMES.
timed = start=$$(date +%s); $(2); code=$$?; \
  printf '%s\t%s\t%s\t%s\n' '$(1)' "$$start" "$$(date +%s)" "$$code" >>$(STAGE_TIMES); [ $$code -eq 0 ]
REPORT = node tools/ci/report.js $(STAGE_TIMES) $(JEST_RESULTS) .haven/containers/results/testcontainers.json \
  .haven/containers/results/compose-smoke.json

test: ## Everything: lint, types, supergraph, unit, integration, browser, containers
	@mkdir -p .haven; rm -f $(JEST_RESULTS) $(STAGE_TIMES) $(JEST_DONE)
	@$(call timed,set-up,$(MAKE) --no-print-directory install provision stripe-mock) || { $(REPORT); exit 1; }
	@$(call timed,checks,$(MAKE) --no-print-directory check) || { $(REPORT); exit 1; }
	@$(call timed,web build,$(MAKE) --no-print-directory web-build) || { $(REPORT); exit 1; }
	@status=0; \
	  ( $(call timed,containers,HAVEN_COMPOSE_AFTER=$(JEST_DONE) $(TSX) tools/containers/cli.ts stage >$(CONTAINER_STAGE_LOG) 2>&1) ) & containers=$$!; \
	  $(call timed,jest,npx jest --selectProjects unit integration --maxWorkers=$(TEST_WORKERS) --forceExit --json --outputFile=$(JEST_RESULTS)) || status=1; \
	  touch $(JEST_DONE); \
	  wait $$containers || status=1; \
	  echo; echo '--- the container stage (it ran beside jest) ---'; cat $(CONTAINER_STAGE_LOG); \
	  $(REPORT); node tools/ci/summary.js $(JEST_RESULTS) --dir .haven/containers/results; exit $$status

docker-engine: ## Debian's Docker engine (docker.io) and mmdebstrap, for the container stage
	$(TSX) tools/containers/cli.ts engine-install

images: install provision web-build ## Every image, built locally without a registry (cached by content)
	$(TSX) tools/containers/cli.ts images

compose-smoke: install provision web-build ## The compose stack up, sign-up → e-mail → sign-in through it, down -v
	@rm -rf .haven/containers/results
	$(TSX) tools/containers/cli.ts compose-smoke; status=$$?; \
	  node tools/ci/summary.js --dir .haven/containers/results; exit $$status

k8s-check: $(NPM_STAMP) ## kustomize build of every overlay, strict validation against pinned k8s.io/api, Haven's policy
	$(TSX) tools/containers/k8s-check.ts

engine-up: $(NPM_STAMP) ## Start Haven's Docker engine by hand (DOCKER_HOST=unix:///run/haven-docker/docker.sock)
	$(TSX) tools/containers/cli.ts engine-up

engine-down: $(NPM_STAMP) ## Stop the engine started by engine-up
	$(TSX) tools/containers/cli.ts engine-down

# Flake hunting: the same jest run as `make test`, N times in a row (checks and the web build once, before).
# Stops at the first red run; each run prints its "N passed, N failed" line and its wall time.
N ?= 5
test-repeat: install provision check web-build ## Run the whole suite N times in a row (N=5), stop at the first failure
	@mkdir -p .haven; for run in $$(seq 1 $(N)); do \
	  rm -f $(JEST_RESULTS); start=$$(date +%s); \
	  npx jest --maxWorkers=$(TEST_WORKERS) --forceExit --silent --json --outputFile=$(JEST_RESULTS) >.haven/test-repeat-$$run.log 2>&1; status=$$?; \
	  echo "run $$run/$(N): $$(node tools/ci/summary.js $(JEST_RESULTS)) in $$(( $$(date +%s) - start )) s"; \
	  if [ $$status -ne 0 ]; then echo "run $$run failed; its output: .haven/test-repeat-$$run.log" >&2; exit $$status; fi; \
	done

test-unit: $(NPM_STAMP) ## Unit tests only (no servers)
	npx jest --selectProjects unit

test-integration: install provision web-build ## Integration and browser tests (real servers)
	npx jest --selectProjects integration --maxWorkers=$(TEST_WORKERS)

test-servers: $(NPM_STAMP) ## Keep a database, Kafka and maildev running for make test-area
	$(TSX) tools/testing/servers-cli.ts up

test-servers-down: $(NPM_STAMP) ## Stop the servers of make test-servers
	$(TSX) tools/testing/servers-cli.ts down

AREA ?= services
test-area: $(NPM_STAMP) ## One area's integration tests against the kept test servers (AREA=services/quote)
	HAVEN_TEST_INFRA=running npx jest --selectProjects integration --maxWorkers=1 $(AREA)

test-browser: install provision web-build ## Browser tests only
	npx jest --selectProjects integration --maxWorkers=$(TEST_WORKERS) web/e2e

bench: install provision web-build ## Benchmarks: GET /api/user through each layer vs a bare Node server; the landing page's JavaScript and Lighthouse scores
	$(TSX) tools/bench/run.ts

clean: ## Remove build output and test state (keeps the provisioning cache)
	rm -rf web/dist .haven/test-* .haven/bench-* .haven/e2e $(JEST_RESULTS)
