"""The documented limits on input that keep work and memory bounded on hostile files (issue 40):
the longest line, the largest decompressed stream and its largest expansion ratio.

Each limit is a constant here, read once from an environment variable of the same name
(``CONLL_EVAL_MAX_LINE_BYTES``, ...) when that is set to a positive integer, so that a user with a
legitimately larger file can raise it; docs/security.md lists them with the errors they give.
"""
from __future__ import annotations

import os

__all__ = ["MAX_LINE_BYTES", "MAX_DECOMPRESSED_BYTES", "MAX_COMPRESSION_RATIO",
           "RATIO_CHECK_FROM_BYTES", "MAX_CONFIG_BYTES",
           "MAX_COLLAPSED_PATH_NODES", "COLLAPSED_PATH_NODES_PER_EDGE",
           "MAX_SUBMISSION_BYTES", "MAX_SUBMISSION_FILE_BYTES", "MAX_SUBMISSION_FILES",
           "SCORING_SECONDS", "SCORING_MEMORY_BYTES", "MAX_UPLOAD_BYTES"]


def _setting(name: str, default: int) -> int:
    """``$CONLL_EVAL_<name>`` when it is a positive integer, else ``default``."""
    value = os.environ.get(f"CONLL_EVAL_{name}", "")
    return int(value) if value.isdigit() and int(value) > 0 else default


#: the longest line (bytes, without its newline) of any text input; a longer one is an error
#: ([line-too-long]).  The longest lines of real treebanks (``# text`` of a long sentence, a
#: word's MISC) are a few kB; 1 MiB leaves three orders of magnitude.
MAX_LINE_BYTES = _setting("MAX_LINE_BYTES", 1 << 20)
#: the most bytes a compressed input may expand to ([decompressed-too-large]); the largest UD
#: treebank file is about 0.4 GB
MAX_DECOMPRESSED_BYTES = _setting("MAX_DECOMPRESSED_BYTES", 4 << 30)
#: the largest ratio of decompressed to compressed bytes ([compression-ratio]); CoNLL-U compresses
#: about 5-12x (gzip to xz), a file of newlines over 1000x
MAX_COMPRESSION_RATIO = _setting("MAX_COMPRESSION_RATIO", 100)
#: the ratio is checked only once this many bytes came out (small files may compress better)
RATIO_CHECK_FROM_BYTES = _setting("RATIO_CHECK_FROM_BYTES", 16 << 20)
#: the largest small file read whole ([file-too-large]): a ``-w`` weights file, a ``--pairs``
#: list, a suite's metadata.json, a tagger's rc file; real ones are a few kB
MAX_CONFIG_BYTES = _setting("MAX_CONFIG_BYTES", 16 << 20)
#: the work ``--collapse-empty-nodes`` may spend on one sentence's paths through empty nodes
#: ([too-many-empty-node-paths]), counted in the nodes of the paths it builds (``2>4.1>5`` is
#: 3): this many, plus :data:`COLLAPSED_PATH_NODES_PER_EDGE` per enhanced edge of the sentence
#: (so a long sentence is never refused for its length).  Every simple path is built, as
#: enhanced_collapse_empty_nodes.pl does, and their number grows exponentially with empty nodes
#: heading each other (6 empty nodes that all head each other: 16 s and 664 MB); real
#: sentences build a few dozen nodes per edge at most
MAX_COLLAPSED_PATH_NODES = _setting("MAX_COLLAPSED_PATH_NODES", 1_000_000)
#: what each enhanced edge of a sentence adds to :data:`MAX_COLLAPSED_PATH_NODES`
COLLAPSED_PATH_NODES_PER_EDGE = 100
#: a leaderboard submission (conll_eval.leaderboard.archive): the most bytes all its files may
#: unpack to ([archive-too-large]); the 82 test treebanks of CoNLL 2018 are about 60 MB
MAX_SUBMISSION_BYTES = _setting("MAX_SUBMISSION_BYTES", 1 << 30)
#: the most bytes one file of a submission may unpack to ([archive-too-large])
MAX_SUBMISSION_FILE_BYTES = _setting("MAX_SUBMISSION_FILE_BYTES", 512 << 20)
#: the most members (files and folders) a submission may hold ([archive-too-many-files]); UD
#: has about 300 treebanks
MAX_SUBMISSION_FILES = _setting("MAX_SUBMISSION_FILES", 1000)
#: a leaderboard worker's wall-clock limit on scoring one submission (seconds); past it the
#: submission fails ([time-limit] in its error); an 82-treebank submission scores in seconds
SCORING_SECONDS = _setting("SCORING_SECONDS", 600)
#: the address space a leaderboard worker's scoring process may use (bytes, RLIMIT_AS); past it
#: the submission fails ([memory-limit] in its error)
SCORING_MEMORY_BYTES = _setting("SCORING_MEMORY_BYTES", 4 << 30)
#: the largest request body ``leaderboard serve`` reads (an upload, counted while it streams in;
#: [upload-too-large], HTTP 413); the 82 test treebanks of CoNLL 2018 zip to about 10 MB
MAX_UPLOAD_BYTES = _setting("MAX_UPLOAD_BYTES", 256 << 20)
