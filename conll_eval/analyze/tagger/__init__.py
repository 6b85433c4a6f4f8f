"""Tagger evaluation: two tagged files compared token by token, as moot's ``mooteval`` does.

``native`` reads moot's native text files ('medium' tagged, 'well done' tagged + analysed),
``options`` parses mooteval's command line and rc files, ``comparison`` is mooteval's merge
loop with its per-token flags and counters; ``conllu`` compares CoNLL-U columns (UPOS, XPOS,
FEATS, LEMMA, MISC keys) on the conll18 word alignment.
"""

#: the columns compared when --columns is not given (here, not in :mod:`.conllu`, which loads
#: numpy: the command line's help reads it at start-up)
DEFAULT_COLUMNS = ("UPOS", "XPOS", "FEATS", "LEMMA")
