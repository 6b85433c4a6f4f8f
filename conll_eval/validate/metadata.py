"""Level 2 of the UD validator for sentence metadata: sent_id, parallel_id, newdoc/newpar and the
text attribute against the FORMs and SpaceAfter=No.  sent_ids and parallel ids are tracked across
the files of a run (the validator's state).
"""
from __future__ import annotations

import re
from typing import Set

from .patterns import (FORM, ID, MISC, _RE_ALTPART, _RE_NEWDOC, _RE_NEWPAR, _RE_PARALLELID,
                       _RE_SENTID, _RE_TEXT, _is_empty, _is_mwt, _shorten)


#: what str.lstrip() strips (str.isspace(): re's \s for str patterns is the same class)
_SPACES = re.compile(r"\s*")


class MetadataChecks:
    """Level 2 checks of the comment lines and of text vs FORM (a mixin of
    :class:`conll_eval.validate.backbone.Validator`)."""

    def _meta(self, testid, message, line=None):
        self._add(2, "METADATA", testid, self.sentence_line if line is None else line, message)

    def _sent_id(self, comments):
        matched = []
        for c in comments:
            m = _RE_SENTID.fullmatch(c)
            if m:
                matched.append(m.group(1))
            elif c.startswith("# sent_id") or c.startswith("#sent_id"):
                self._meta("invalid-sent-id", f"Spurious sent_id line: '{c}' should look like"
                           " '# sent_id = xxxxx' where xxxxx is not whitespace. Forward slash"
                           " reserved for special purposes.")
        if not matched:
            self._meta("missing-sent-id", "Missing the sent_id attribute.")
        elif len(matched) > 1:
            self._meta("multiple-sent-id", "Multiple sent_id attributes.")
        else:
            sid = matched[0]
            if sid in self.known_sent_ids:
                self._meta("non-unique-sent-id", f"Non-unique sent_id attribute '{sid}'.")
            if sid.count("/") > 1:  # one slash is allowed with --lang ud
                self._meta("slash-in-sent-id", "The forward slash is reserved for special use in"
                           f" parallel treebanks: '{sid}'")
            self.known_sent_ids.add(sid)

    def _parallel_id(self, comments):
        matched = []
        for c in comments:
            m = _RE_PARALLELID.fullmatch(c)
            if m:
                matched.append(m)
            elif c.startswith("# parallel_id") or c.startswith("#parallel_id"):
                self._meta("invalid-parallel-id", f"Spurious parallel_id line: '{c}' should look"
                           " like '# parallel_id = corpus/sentence' where corpus is [a-z]+ and"
                           " sentence is [-0-9a-z]. Optionally, '/alt[1-9][0-9]*' and/or"
                           " 'part[1-9][0-9]*' may follow.")
        if len(matched) > 1:
            self._meta("multiple-parallel-id", "Multiple parallel_id attributes.")
            return
        if not matched:
            return
        m = matched[0]
        pid = m.group(1)
        if pid in self.known_parallel_ids:
            self._meta("non-unique-parallel-id", f"Non-unique parallel_id attribute '{pid}'.")
        else:
            sid = m.group(2) + "/" + m.group(3)
            alt = part = None
            if m.group(4):
                ap = _RE_ALTPART.fullmatch(m.group(4))
                if ap:
                    alt = int(ap.group(1)) if ap.group(1) else None
                    part = int(ap.group(2)) if ap.group(2) else None
            for name, value, last in (("alt", alt, self.parallel_lastalt),
                                      ("part", part, self.parallel_lastpart)):
                tid = f"parallel-id-{name}"
                if sid in last:
                    prev = last[sid]
                    if (prev is None) != (value is None):
                        self._meta(tid, f"Some instances of parallel sentence '{sid}' have the"
                                   f" '{name}' suffix while others do not.")
                    elif value is not None and value != prev + 1:
                        self._meta(tid, f"The {name} suffix of parallel sentence '{sid}' should"
                                   f" be {prev}+1 but it is {value}.")
                elif value is not None and value != 1:
                    self._meta(tid, f"The {name} suffix of parallel sentence '{sid}' should be 1"
                               f" but it is {value}.")
                last[sid] = value
        self.known_parallel_ids.add(pid)

    def _text(self, comments):
        newdoc = [c for c in comments if _RE_NEWDOC.fullmatch(c)]
        newpar = [c for c in comments if _RE_NEWPAR.fullmatch(c)]
        texts = [m.group(1) for m in map(_RE_TEXT.fullmatch, comments) if m]
        if len(newdoc) > 1:
            self._meta("multiple-newdoc", "Multiple newdoc attributes.")
        if len(newpar) > 1:
            self._meta("multiple-newpar", "Multiple newpar attributes.")
        if (newdoc or newpar) and self.spaceafterno_in_effect:
            self._meta("spaceafter-newdocpar", "New document or paragraph starts when the last"
                       " token of the previous sentence says SpaceAfter=No.")
        if not texts:
            self._meta("missing-text", "Missing the text attribute.")
            return
        if len(texts) > 1:
            self._meta("multiple-text", "Multiple text attributes.")
            return
        stext = texts[0]
        if not stext:
            self._meta("empty-text", "The text attribute must not be empty.")
        elif stext[-1].isspace():
            self._meta("text-trailing-whitespace", "The text attribute must not end with"
                       " whitespace.")
        skip: Set[str] = set()
        mismatch_reported = False
        at = 0  # stext[at:] is the text no FORM matched yet (an index, not a copy per word:
        # udtools' slices cost the text's length per word, quadratic on a long sentence)
        for i, cols in enumerate(self.table):
            lineno = self.sentence_line + i
            misc = cols[MISC]
            if "NoSpaceAfter=Yes" in misc:
                self._meta("nospaceafter-yes", "'NoSpaceAfter=Yes' should be replaced with"
                           " 'SpaceAfter=No'.")
            if any(x.startswith("SpaceAfter=") and x != "SpaceAfter=No" for x in misc.split("|")):
                self._meta("spaceafter-value", "Unexpected value of the 'SpaceAfter' attribute in"
                           " MISC. Did you mean 'SpacesAfter'?", lineno)
            if _is_empty(cols):
                if "SpaceAfter=No" in misc:
                    self._meta("spaceafter-empty-node", "'SpaceAfter=No' cannot occur with empty"
                               " nodes.", lineno)
                continue
            if _is_mwt(cols):
                beg, end = cols[ID].split("-")
                skip.update(str(k) for k in range(int(beg), int(end) + 1))
            elif cols[ID] in skip:
                if "SpaceAfter=No" in misc:
                    self._meta("spaceafter-mwt-node", "'SpaceAfter=No' cannot occur with words"
                               " that are part of a multi-word token.", lineno)
                continue
            form = cols[FORM]
            if not stext.startswith(form, at):
                if not mismatch_reported:
                    extra = (" (perhaps extra SpaceAfter=No at previous token?)"
                             if stext[at:at + 1].isspace() else "")
                    self._meta("text-form-mismatch", "Mismatch between the text attribute and the"
                               f" FORM field. Form[{cols[ID]}] is '{form}' but text is"
                               f" '{stext[at:at + len(form) + 20]}...'" + extra, lineno)
                    mismatch_reported = True
            else:
                at += len(form)
                if "SpaceAfter=No" in misc.split("|"):
                    self.spaceafterno_in_effect = True
                else:
                    self.spaceafterno_in_effect = False
                    if at < len(stext) and not stext[at].isspace():
                        # (_shorten keeps 20 characters of the form and the text after it)
                        self._meta("missing-spaceafter", "'SpaceAfter=No' is missing in the MISC"
                                   f" field of node {cols[ID]} because the text is"
                                   f" '{_shorten(form + stext[at:at + 25])}'.", lineno)
                    at = _SPACES.match(stext, at).end()  # type: ignore[union-attr]  # (\s*)
        if at < len(stext):
            self._meta("text-extra-chars", "Extra characters at the end of the text attribute,"
                       f" not accounted for in the FORM fields: '{stext[at:]}'")
