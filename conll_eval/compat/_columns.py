"""The indices of the ten CoNLL-U fields in an official ``UDWord.columns`` list.

A module of their own: the per-word rescoring (:mod:`conll_eval.compat.custom`) and the
official objects (:mod:`conll_eval.compat._base`) both read them."""
ID, FORM, LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL, DEPS, MISC = range(10)
