"""The API the IWPT 2020 scorer and udtools' udeval share (``build_evaluation_table``,
``evaluate_wrapper``'s ``treebank_type`` from the options, their argparse options), bound to a
profile by :mod:`conll_eval.compat.iwpt20` and :mod:`conll_eval.compat.udeval`.

The two scripts differ in ``load_conllu``'s signature, udeval's longer text-mismatch message,
a few reader messages and ``build_evaluation_table``'s defaults; everything else is here."""
from __future__ import annotations

import argparse
from typing import Dict, List, Optional, Tuple

from ..stats import Score
from . import table
from ._base import invoked_prog

#: the scripts' ``--enhancements`` help, shortened
_ENHANCEMENTS_HELP = ("Level of enhancements in the gold data (see guidelines) 0=all (default), "
                      "1=no gapping, 2=no shared parents, 3=no shared dependents 4=no control, "
                      "5=no external arguments, 6=no lemma info, combinations: 12=both 1 and 2 "
                      "apply, etc.")


def process_enhanced_deps(deps: str) -> List[Tuple[str, List[str]]]:
    """A DEPS value as the scripts' helper of that name splits it: ``[(head, [relation, ...])]``,
    the head as written and the relation path split at ``>``; ``[]`` for ``_`` or ``''``."""
    if deps in ("", "_"):
        return []
    edges = []
    for edge in deps.split("|"):
        head, path = edge.split(":", 1)  # no colon: ValueError, as in the scripts
        edges.append((head, path.split(">")))
    return edges


def treebank_type_of(args) -> Dict[str, object]:
    """The ``treebank_type`` dict the scripts' ``evaluate_wrapper`` builds from the options."""
    enhancements = list(args.enhancements)
    treebank_type: Dict[str, object] = {}
    for key, digit in (("no_gapping", "1"), ("no_shared_parents_in_coordination", "2"),
                       ("no_shared_dependents_in_coordination", "3"), ("no_control", "4"),
                       ("no_external_arguments_of_relative_clauses", "5"), ("no_case_info", "6")):
        treebank_type[key] = 1 if digit in enhancements else 0
    treebank_type["no_empty_nodes"] = args.no_empty_nodes
    treebank_type["multiple_roots_okay"] = args.multiple_roots_okay
    return treebank_type


def enhanced_table(evaluation: Dict[str, Score], verbose, counts, enhanced, profile: str) -> str:
    """The scripts' ``build_evaluation_table``: LAS/MLAS/BLEX (and ELAS/EULAS) lines, or the
    ``-v`` / ``-c`` table with ELAS and EULAS last when ``enhanced``."""
    return table(evaluation, verbose, counts, profile, bool(enhanced))


def parser(description: str, args: Optional[list] = None) -> argparse.Namespace:
    """The scripts' options, exactly: ``--no-empty-nodes`` takes a value (any value is true)."""
    p = argparse.ArgumentParser(prog=invoked_prog(), description=description)
    p.add_argument("gold_file", type=str, help="Name of the CoNLL-U file with the gold data.")
    p.add_argument("system_file", type=str, help="Name of the CoNLL-U file with the predicted data.")
    p.add_argument("--verbose", "-v", default=False, action="store_true", help="Print all metrics.")
    p.add_argument("--counts", "-c", default=False, action="store_true",
                   help="Print raw counts of correct/gold/system/aligned words instead of "
                        "precision/recall/F1 for all metrics.")
    p.add_argument("--no-enhanced", dest="enhanced", action="store_false", default=True,
                   help="Turn off evaluation of enhanced dependencies.")
    p.add_argument("--enhancements", type=str, default="0", help=_ENHANCEMENTS_HELP)
    p.add_argument("--no-empty-nodes", default=False,
                   help="Empty nodes have been collapsed (needed to correctly evaluate "
                        "enhanced/gapping). Raise exception if an empty node is encountered.")
    p.add_argument("--multiple-roots-okay", default=False, action="store_true",
                   help="A single sentence can have multiple nodes with HEAD=0.")
    return p.parse_args(args)
