"""The exact parser's checks that are not about one line: its error texts, and each sentence's tree.

:class:`ErrorReporting` builds errors with the official text and the real cause;
:class:`TreeChecks` resolves a sentence's HEADs with the official checks in the official order.
"""
from __future__ import annotations

from typing import List, Optional, Tuple

from ..errors import FormatError, InputError, Location, TreeError
from .exact_columns import ColumnLists
from .profiles import official_int, official_message

__all__ = ["ErrorReporting", "TreeChecks"]


class ErrorReporting:
    """Errors of the exact parser: ``path:line``, the sentence's ``sent_id``, the profile's
    official text, and the cause named when the official reader would blame a later line."""

    path: str
    #: whether the file's first line starts with a byte-order mark (set when it is read)
    starts_with_bom = False
    profile: str
    pending_sent_id: Optional[str] = None
    #: (line, message) of an empty node met inside a multi-word token of this sentence
    empty_in_mwt: Optional[Tuple[int, str]] = None

    def _loc(self, line: Optional[int], sent_id: Optional[str] = None) -> Location:
        return Location(self.path, line, sent_id)

    def _format_error(self, line, code, message, kind=None, **kw):
        official = official_message(self.profile, kind, line, **kw) if kind else None
        return self._blame(FormatError(self._loc(line, self.pending_sent_id), code, message, official))

    def _tree_error(self, line, code, message, kind, **kw):
        return self._blame(TreeError(self._loc(line, self.pending_sent_id), code, message,
                                     official_message(self.profile, kind, line, **kw)))

    def _blame(self, error: InputError) -> InputError:
        """Name the real cause when an empty node inside a multi-word token led to ``error``.

        The official reader takes such a line as one of the token's words and fails later
        (usually on the next word ID); we report the empty node, with the official text.
        """
        if error.location.line == 1 and self.starts_with_bom:
            return FormatError(error.location, "bom", "the file starts with a UTF-8 byte-order mark "
                               "(BOM), which the official scorers reject: save it without BOM",
                               error.official)
        if self.empty_in_mwt is None:
            return error
        line, message = self.empty_in_mwt
        return FormatError(self._loc(line, self.pending_sent_id), "empty-node-in-mwt", message,
                           error.official)

    def _columns_error(self, lineno: int, text: str, in_mwt: bool = False):
        """Wrong column count; a '#' line only gets here inside a sentence."""
        n = text.count("\t") + 1
        if text.startswith("#") and not in_mwt:
            code, msg = "misplaced-comment", ("comment line inside a sentence: comments are only "
                                              "allowed before the first word line of a sentence")
        else:
            code = "wrong-column-count"
            if text.strip() == "":
                msg = ("line contains only whitespace" if text else "empty line") + \
                    " where a word line with 10 tab-separated columns is expected"
            else:
                msg = f"expected 10 tab-separated columns, found {n}"
                if n == 1 and " " in text:
                    msg += " (columns separated by spaces instead of tabs?)"
            if in_mwt:
                msg += " (inside a multi-word token, whose word lines must follow its range line)"
        return self._format_error(lineno, code, msg, "columns", text=text, in_mwt=in_mwt)


class TreeChecks(ErrorReporting):
    """Each sentence's HEADs resolved to word indices when its blank line is read."""

    kept: ColumnLists
    trees: bool
    multiple_roots: bool

    def _finish_sentence(self, start: int, lineno: int) -> None:
        """Resolve the sentence's HEADs (:meth:`_resolve_tree`); without tree checks
        (``trees=False``) a sentence that is no valid tree, or has a HEAD ``_``, gets every
        head -1 instead of an error (a HEAD that is neither ``_`` nor an integer still fails)."""
        kept = self.kept
        end = len(kept.heads)
        if self.trees or start == end:  # an empty sentence is no tree matter: always an error
            self._resolve_tree(start, lineno)
            return
        texts = kept.head_text[start:end]
        for k, text in enumerate(texts):
            if kept.word_is_mwt[start + k] and text != "_":
                try:
                    official_int(text)
                except ValueError as exc:
                    raise self._format_error(
                        kept.word_line[start + k], "invalid-head",
                        f"cannot parse HEAD {text!r} of a word inside a multi-word token: it "
                        f"must be an integer or _", None) from exc
        if "_" not in texts:
            try:
                self._resolve_tree(start, lineno)
                return
            except TreeError:
                pass
        kept.heads[start:end] = [-1] * (end - start)

    def _resolve_tree(self, start: int, lineno: int) -> None:
        """Resolve HEADs to global word indices (in place) with the official checks and order.

        Iterative, so a 100,000-deep chain works; the first error is the one the official
        recursive ``process_word`` would raise.
        """
        kept = self.kept
        heads, head_text = kept.heads, kept.head_text
        word_line, word_is_mwt = kept.word_line, kept.word_is_mwt
        profile = self.profile
        end = len(heads)
        n = end - start
        state = bytearray(n)  # 0 = unprocessed, 1 = in progress, 2 = done
        resolved = [0] * n
        for k in range(n):
            if word_is_mwt[start + k]:
                try:
                    resolved[k] = official_int(head_text[start + k])
                except ValueError as exc:
                    raise self._format_error(
                        word_line[start + k], "invalid-head",
                        f"cannot parse HEAD {head_text[start + k]!r} of a word inside a multi-word "
                        f"token: it must be an integer (the official script crashes here)", None) from exc
            else:
                resolved[k] = heads[start + k]
        parent = [-1] * n
        for k in range(n):
            path = []
            cur = k
            while True:
                if state[cur] == 1:
                    wids = sorted(x + 1 for x in path[path.index(cur):])  # not the way in
                    raise self._tree_error(lineno, "cycle",
                                           f"the basic tree has a cycle through words {_ids(wids)}",
                                           "cycle")
                if state[cur] == 2:
                    break
                h = resolved[cur]
                negative_ok = profile == "conll17" and h < 0
                if (h < 0 and not negative_ok) or h > n:
                    raise self._tree_error(
                        lineno, "head-out-of-range",
                        f"HEAD {head_text[start + cur]} of word {cur + 1} (line {word_line[start + cur]}) "
                        f"points outside the sentence of {n} words", "head-range",
                        head=head_text[start + cur])
                if h == 0:
                    state[cur] = 2
                    parent[cur] = -1
                    break
                target = start + h - 1
                if target < 0:  # conll17 quirk: Python negative indexing into all words read so far
                    target += end
                    if target < 0:
                        raise self._tree_error(
                            lineno, "head-out-of-range",
                            f"HEAD {head_text[start + cur]} of word {cur + 1} (line {word_line[start + cur]}) "
                            f"points before the start of the file", "head-range", head=head_text[start + cur])
                state[cur] = 1
                path.append(cur)
                parent[cur] = target
                if target < start or target >= end:
                    break  # a word of another sentence, already resolved
                cur = target - start
            for x in path:
                state[x] = 2
        roots = [k + 1 for k in range(n) if resolved[k] == 0]
        if len(roots) != 1 and not (self.multiple_roots and len(roots) > 1):
            if n == 0:
                code, msg = "empty-sentence", ("empty sentence: a blank line with no word lines before it "
                                               "(a double blank line, or a blank line after comments)")
            elif not roots:
                code, msg = "no-root", "the sentence has no root word (HEAD 0)"
            else:
                code, msg = "multiple-roots", f"the sentence has {len(roots)} root words (HEAD 0): {_ids(roots)}"
            raise self._tree_error(lineno, code, msg, "roots", roots=len(roots), words=n)
        heads[start:end] = parent


def _ids(ids: List[int], limit: int = 10) -> str:
    shown = ", ".join(map(str, ids[:limit]))
    return shown + (f", ... ({len(ids)} in all)" if len(ids) > limit else "")
