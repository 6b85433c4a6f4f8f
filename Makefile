# conll_eval developer targets
PYTHON ?= python

.PHONY: install test test-slow oracles bench bench-suite bench-analyze bench-compare bench-enhanced bench-validate bench-scaling golden example clean

install:
	$(PYTHON) -m pip install -e '.[test]'

test:
	$(PYTHON) -m pytest

test-slow:
	$(PYTHON) -m pytest -m slow

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

golden:
	$(PYTHON) scripts/make_golden.py

example:
	conll_eval -v testdata/example/gold.conllu testdata/example/system.conllu

clean:
	rm -rf build dist *.egg-info .pytest_cache .hypothesis

# hostile input shapes at a size and twice it: time (and memory where it was quadratic) grows <= 2.5x
bench-scaling:
	$(PYTHON) bench/bench_scaling.py
