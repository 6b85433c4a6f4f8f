"""The subcommands of ``conll_eval``, in one table in the order of its usage text: the dispatch
(:data:`conll_eval.cli.COMMANDS`) and the list that ``conll_eval --help`` ends with are made
from it, so neither can leave a command out.  Names only: importing it loads nothing."""

__all__ = ["SUBCOMMANDS", "commands_sentence"]

#: subcommand -> (its module in :mod:`conll_eval.cli`, the function that runs it); scoring a
#: pair is the default command, ``help`` is :func:`conll_eval.cli.main`'s own
SUBCOMMANDS = {"validate": ("validate", "validate_command"),
               "suite": ("suite", "suite_command"),
               "leaderboard": ("leaderboard", "leaderboard_command"),
               "analyze": ("analyze", "analyze_command"),
               "breakdown": ("breakdown", "breakdown_command"),
               "compare": ("compare", "compare_command"),
               "tagger": ("tagger", "tagger_command"),
               "alignment": ("alignment", "alignment_command"),
               "report": ("report", "report_command"),
               "codalab": ("codalab", "codalab_command"),
               "completion": ("completion", "completion_command"),
               "man": ("manpages", "man_command")}


def commands_sentence() -> str:
    """The sentence of ``conll_eval --help`` that names every command."""
    return (f"Every command: score (the default), {', '.join(SUBCOMMANDS)} and help; each "
            "has its --help (or: conll_eval help COMMAND), and a bare 'conll_eval' lists them "
            "with a line each.")
