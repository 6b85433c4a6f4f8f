"""Slow, obviously-correct reference of the official word alignment (a test oracle of our own).

The official ``align_words`` walk transcribed word by word over Python lists, with no bulk
steps; :mod:`conll_eval.align` must give the same pairs.
"""
from typing import List

from conll_eval.align import _lcs_align


def _align_general(gs_, ge_, gm_, gf_, ss_, se_, sm_, sf_):
    """The official cursor walk over both word lists (lists of Python ints for speed)."""
    n_g, n_s = len(gs_), len(ss_)
    out_g: List[int] = []
    out_s: List[int] = []
    gi = si = 0
    while gi < n_g and si < n_s:
        if gm_[gi] or sm_[si]:
            # find the minimal multiword span
            if gm_[gi]:
                span_end = ge_[gi]
                if not sm_[si] and ss_[si] < gs_[gi]:
                    si += 1
            else:
                span_end = se_[si]
                if not gm_[gi] and gs_[gi] < ss_[si]:
                    gi += 1
            g0, s0 = gi, si
            while True:
                g_beyond = gi >= n_g or (gs_[gi] >= span_end if gm_[gi] else ge_[gi] > span_end)
                s_beyond = si >= n_s or (ss_[si] >= span_end if sm_[si] else se_[si] > span_end)
                if g_beyond and s_beyond:
                    break
                if gi < n_g and (si >= n_s or gs_[gi] <= ss_[si]):
                    if gm_[gi] and ge_[gi] > span_end:
                        span_end = ge_[gi]
                    gi += 1
                else:
                    if sm_[si] and se_[si] > span_end:
                        span_end = se_[si]
                    si += 1
            if gi > g0 and si > s0:
                _lcs_align(gf_[g0:gi], sf_[s0:si], g0, s0, out_g, out_s)
        else:
            if gs_[gi] == ss_[si] and ge_[gi] == se_[si]:
                out_g.append(gi)
                out_s.append(si)
                gi += 1
                si += 1
            elif gs_[gi] <= ss_[si]:
                gi += 1
            else:
                si += 1
    return out_g, out_s



def reference_alignment(gold, system):
    """(gold indices, system indices) of aligned words, by the word-by-word walk."""
    from conll_eval.align import lower_forms
    return _align_general(
        gold.word_start.tolist(), gold.word_end.tolist(), gold.word_is_mwt.tolist(),
        lower_forms(gold, 0, gold.n_words),
        system.word_start.tolist(), system.word_end.tolist(), system.word_is_mwt.tolist(),
        lower_forms(system, 0, system.n_words))
