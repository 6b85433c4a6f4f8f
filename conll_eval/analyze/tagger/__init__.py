"""Tagger evaluation: two tagged files compared token by token, as moot's ``mooteval`` does.

``native`` reads moot's native text files ('medium' tagged, 'well done' tagged + analysed),
``options`` parses mooteval's command line and rc files, ``comparison`` is mooteval's merge
loop with its per-token flags and counters; ``conllu`` compares CoNLL-U columns (UPOS, XPOS,
FEATS, LEMMA, MISC keys) on the conll18 word alignment.
"""
