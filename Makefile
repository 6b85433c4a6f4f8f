# conll_eval developer targets
PYTHON ?= python

.PHONY: install test test-slow test-ci oracles bench bench-suite bench-analyze bench-compare bench-enhanced bench-validate bench-leaderboard bench-scaling golden example clean mutation

install:
	$(PYTHON) -m pip install -e '.[test]'

test:
	$(PYTHON) -m pytest

test-slow:
	$(PYTHON) -m pytest -m slow

# CI's second stage, as .ci/run runs it after make test (docs/development.md, "Continuous
# integration"): the real-data comparisons and a fixed sample of the generated tests, then a
# sample of pairs on the numpy path: about 11 minutes of CPU (19 min wall on a busy 2-core machine)
test-ci:
	$(PYTHON) -m pytest --ci-stage 2
	CONLL_EVAL_PURE=1 $(PYTHON) -m pytest --ci-stage pure

# the official scorers and the UD validator, into $CONLL_EVAL_ORACLES or ~/.cache/conll_eval-oracles,
# where golden, bench and the tests look for them (scripts/get_oracles.py --find prints which)
oracles:
	$(PYTHON) scripts/get_oracles.py

bench:
	$(PYTHON) bench/bench.py

bench-suite:
	$(PYTHON) bench/bench_suite.py

bench-compare:
	$(PYTHON) bench/bench_compare.py

# MALTEVAL_JAR=/path/to/MaltEval.jar also times MaltEval 1.0 and compares its output
bench-analyze:
	$(PYTHON) bench/bench_analyze.py $(if $(MALTEVAL_JAR),--malteval-jar $(MALTEVAL_JAR))

# ELAS/EULAS: --profile iwpt -v against iwpt20_ud_eval.py -v on a 1M-word pair with enhanced graphs
bench-enhanced:
	$(PYTHON) bench/bench_enhanced.py

# conll_eval validate against udvalidate at levels 2 and 5 on a 1M-word treebank (en_ewt gold repeated)
bench-validate:
	$(PYTHON) bench/bench_validate.py

# issue 42's leaderboard targets: a submission of 82 treebanks (~500k words) scored < 10 s, rank with
# 100 teams x 82 treebanks < 5 s, the leaderboard page < 200 ms (needs the leaderboard extra)
bench-leaderboard:
	$(PYTHON) bench/bench_leaderboard.py

golden:
	$(PYTHON) scripts/make_golden.py

example:
	conll_eval -v testdata/example/gold.conllu testdata/example/system.conllu

clean:
	rm -rf build dist *.egg-info .pytest_cache .hypothesis

# hostile input shapes at a size and twice it: time (and memory where it was quadratic) grows <= 2.5x
bench-scaling:
	$(PYTHON) bench/bench_scaling.py

# mutation testing of the scoring core (mutmut 3: pip install -e '.[mutation]'): each mutant of
# align, metrics (and metric_specs, split from it), stats, enhanced, analyze/resampling and
# suite's macro-average functions runs against the tests that reach its function, on the numpy
# path (CONLL_EVAL_PURE=1: the path the Python code is); a fresh mutants/ each time, then the
# score and the survivors.  Long: the time, score and survivors are in docs/development.md
MUTATION_SCOPE = 'conll_eval.align.*' 'conll_eval.metrics.*' 'conll_eval.metric_specs.*' 'conll_eval.stats.*' \
	'conll_eval.enhanced.*' 'conll_eval.analyze.resampling.*' \
	'conll_eval.suite.x__mean__*' 'conll_eval.suite.x__mean_of__*' 'conll_eval.suite.x__average__*' \
	'conll_eval.suite.xǁSuiteEvaluationǁ_languages__*' 'conll_eval.suite.xǁSuiteEvaluationǁby_language__*' \
	'conll_eval.suite.xǁSuiteEvaluationǁlanguage_macro__*'

# every generated test on its first N examples (tests/conftest.py): the score is a lower bound
MUTATION_EXAMPLES = 20

mutation:
	rm -rf mutants
	CONLL_EVAL_PURE=1 CONLL_EVAL_MUTATION_EXAMPLES=$(MUTATION_EXAMPLES) nice -n 10 $(PYTHON) -m mutmut run --max-children 2 $(MUTATION_SCOPE) > mutants.log 2>&1 \
		|| { tail -40 mutants.log; exit 1; }
	$(PYTHON) scripts/mutation_score.py $(MUTATION_SCOPE)
