"""The choices of ``conll_eval alignment``'s options, by name: definitions only, without
numpy, so the command line's help, completion and man pages read them without loading the
evaluation (start-up time).  :mod:`.links` and :mod:`.evaluation` use them and give them too."""

__all__ = ["INPUT_FORMATS", "NULL_POLICIES"]

#: ``--input-format`` choices; ``auto`` looks at the first non-blank line of each file
INPUT_FORMATS = ("auto", "naacl", "pharaoh")
#: ``--null``: keep NAACL links to the NULL word (position 0) as links, or leave them out
NULL_POLICIES = ("keep", "drop")
