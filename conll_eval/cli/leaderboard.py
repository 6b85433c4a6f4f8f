"""``conll_eval leaderboard``: a shared task kept in a database (``init``, ``upgrade``,
``team add``, ``organiser add``, ``submit``, ``rank``, ``rescore``, ``serve``); the work is in :mod:`conll_eval.leaderboard`,
here the options and what is printed.  SQLAlchemy and Alembic (the ``leaderboard`` extra) are
imported only once a leaderboard command runs, never by the parser or by scoring."""
from __future__ import annotations

import argparse
import html
import os
import dataclasses
from typing import List, TextIO

from ..errors import ConllEvalError, UsageError, printable
from ..metric_specs import PROFILES, display_name, profile_metrics
from .common import EXIT_OK, RESAMPLING_OPTIONS, Parser, add_options, metric_list, write_atomically
from .compare import check_resampling_options
from .leaderboard_serve import add_serve, serve

__all__ = ["build_leaderboard_parser", "leaderboard_command"]

PROG = "conll_eval leaderboard"
DEFAULT_DB = "sqlite:///leaderboard.db"
RANK_FORMATS = ("text", "markdown", "json", "latex", "html")


def _add_db(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", default=DEFAULT_DB, metavar="URL",
                        help="the database: sqlite:///FILE (made on first use) or "
                             "postgresql+psycopg://USER@HOST/NAME (default: %(default)s)")


def build_leaderboard_parser() -> argparse.ArgumentParser:
    parser = Parser(prog=PROG, description=(
        "A shared task kept in a database: the task and its gold files, teams with tokens, "
        "submissions scored exactly as 'conll_eval suite GOLD DIR' scores them, and the ranking. "
        "Needs the leaderboard extra: pip install 'conll_eval[leaderboard]'."))
    actions = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=Parser, help=(
        "init (the task), upgrade (an older database's schema), team add NAME, submit PATH, rank, publish DIR, "
        "rescore, work (score queued submissions), organiser add NAME, serve (the web app); 'conll_eval leaderboard ACTION --help' gives each one's options"))
    actions.required = True
    init = actions.add_parser("init", help="make the database and its task")
    _add_db(init)
    init.add_argument("--name", required=True, help="the task's name")
    init.add_argument("--gold", required=True, metavar="DIR",
                      help="the gold treebanks (*.conllu or metadata.json, as suite reads them); "
                           "they stay where they are, their checksums are kept")
    init.add_argument("--store", metavar="DIR",
                      help="where submitted files are kept (default: FILE.files beside a SQLite "
                           "database FILE; required for other databases)")
    init.add_argument("--profile", default="conll18", choices=list(PROFILES),
                      help="the scorer whose rules and metrics apply (default: %(default)s)")
    init.add_argument("--metrics", metavar="M,...", help="the metrics the ranking shows "
                      "(default: the primary one and the profile's main lines)")
    init.add_argument("--primary", default="LAS", metavar="METRIC",
                      help="the metric teams are ranked by, its macro F1 (default: %(default)s)")
    init.add_argument("--level", type=int, default=0, choices=range(0, 6), metavar="N",
                      help="the UD validator's level a submission must pass as well (0, the "
                           "default: what the profile's official scorer accepts)")
    init.add_argument("--phase", default="dev", choices=("dev", "test"), help="(default: %(default)s)")
    init.add_argument("--daily-limit", type=int, default=5, metavar="N",
                      help="the most submissions a team may make in any 24 hours (0: no limit; "
                           "default: %(default)s)")
    upgrade = actions.add_parser("upgrade", help="migrate an older database to this version's schema")
    _add_db(upgrade)
    team = actions.add_parser("team", help="teams: team add NAME prints the team's token")
    team_actions = team.add_subparsers(dest="team_action", metavar="add", parser_class=Parser)
    team_actions.required = True
    add = team_actions.add_parser("add", help="add a team; its token is the last line printed")
    _add_db(add)
    add.add_argument("name", metavar="NAME")
    organiser = actions.add_parser("organiser", help="organisers: organiser add NAME prints the token of "
                                   "serve's organiser page")
    organiser_actions = organiser.add_subparsers(dest="organiser_action", metavar="add", parser_class=Parser)
    organiser_actions.required = True
    add_organiser = organiser_actions.add_parser("add", help="add an organiser; its token is the last line printed")
    _add_db(add_organiser)
    add_organiser.add_argument("name", metavar="NAME")
    submit = actions.add_parser("submit", help="score and store a team's submission")
    _add_db(submit)
    submit.add_argument("--team", required=True, metavar="NAME")
    submit.add_argument("--label", default="", help="a name for this submission (its system)")
    submit.add_argument("--queue", action="store_true",
                        help="keep it queued for 'leaderboard work' instead of scoring it now")
    submit.add_argument("path", metavar="PATH",
                        help="a directory (or a .zip/.tar.gz) of <treebank>.conllu files")
    rank = actions.add_parser("rank", help="the ranking and per-treebank tables")
    _add_db(rank)
    rank.add_argument("--format", default="text", choices=RANK_FORMATS, help="(default: %(default)s)")
    which = rank.add_mutually_exclusive_group()
    which.add_argument("--all", action="store_true", help="every scored submission")
    which.add_argument("--best", action="store_true", help="each team's best (the default)")
    rank.add_argument("-o", "--output", metavar="FILE", help="write there (atomically), not on stdout")
    rank.add_argument("--history", action="store_true",
                      help="also each team's submissions in time order with their macro F1")
    add_options(rank, *RESAMPLING_OPTIONS, notes={
        "correction": "over the tests the clusters' walk makes, one per submission below the first"})
    _resamples_for_the_teams(rank)
    _add_publish(actions)
    rescore = actions.add_parser("rescore", help="record the gold files anew and score every "
                                 "submission again")
    _add_db(rescore)
    rescore.add_argument("--queue", action="store_true",
                         help="put every submission back in the queue for 'leaderboard work' (or serve's "
                              "workers) instead of scoring them now")
    _add_work(actions)
    add_serve(actions, _add_db, _within)
    return parser


def _within(low: float, high: float, kind=float):
    """An option's type: a number of ``kind`` in [low, high] (no NaN, no infinity)."""
    def value(text: str):
        try:
            number = kind(text)
        except ValueError:
            number = None
        if number is None or not low <= number <= high:
            shown = [int(bound) if bound == int(bound) else bound for bound in (low, high)]
            raise argparse.ArgumentTypeError(f"{text!r}: give a number from {shown[0]} to {shown[1]}")
        return number
    return value


def _add_work(actions) -> None:
    work = actions.add_parser("work", help="score queued submissions in worker processes")
    _add_db(work)
    work.add_argument("--workers", type=_within(1, 64, int), default=1, metavar="K",
                      help="worker processes (1-64; default: %(default)s)")
    work.add_argument("--once", action="store_true", help="stop when the queue is empty")
    work.add_argument("--lease", type=_within(0.1, 86400), default=60.0, metavar="SECONDS",
                      help="a claimed submission's lease, renewed every third of it while it is "
                           "scored; a worker that dies leaves it to another after it (default: %(default)g)")
    work.add_argument("--time-limit", type=_within(0.1, 7 * 86400), metavar="SECONDS",
                      help="wall-clock limit on scoring a submission (default: "
                           "CONLL_EVAL_SCORING_SECONDS or 600)")
    work.add_argument("--memory-limit", type=_within(16, 1 << 20), metavar="MB",
                      help="address-space limit of a submission's scoring process (default: "
                           "CONLL_EVAL_SCORING_MEMORY_BYTES or 4096 MB)")


def _add_publish(actions) -> None:
    publish = actions.add_parser("publish", help="the results as a static site (works from file://)")
    _add_db(publish)
    publish.add_argument("directory", metavar="DIR",
                         help="where the site goes: a new or empty directory, or a site publish made "
                              "(replaced whole, atomically)")
    publish.add_argument("--no-reports", action="store_true",
                         help="no HTML report per submission (they score every kept submission again, "
                              "and show the gold sentences)")
    add_options(publish, *RESAMPLING_OPTIONS)
    _resamples_for_the_teams(publish)


def _resamples_for_the_teams(parser) -> None:
    """--resamples of rank and publish: by default enough for the number of teams ranked
    (clusters.Significance.resamples_for), not compare's fixed 1000."""
    for action in parser._actions:
        if action.dest == "resamples":
            action.default = None
            action.help = ("the clusters' paired bootstrap resamples, stratified by treebank, as compare's "
                           "(default: 1000, raised by thousands for many teams so that a test can pass "
                           "after the correction: 4000 for 100 teams at alpha 0.05; at most 10000)")


def _report_maker(task, target: str):
    """Each submission's report, made as 'conll_eval suite GOLD DIR --html' makes it (its
    kept files scored again); None when its files are gone."""
    # here: the scoring and the report page load numpy; only publish makes reports
    from ..evaluate import Settings
    from ..pairing import find_pairs
    from ..leaderboard.public import public_text  # here: the leaderboard extra, as above
    from ..suite import SuiteEvaluation, score_entries
    from .report import suite_html
    settings = Settings(profile=task.profile, strict=task.level)
    metrics = list(dict.fromkeys([task.primary_metric, *task.metrics]))

    def make(submission, path: str):
        if not os.path.isdir(submission.directory):
            return None
        pairing = find_pairs(task.gold_dir, submission.directory)
        results = score_entries(pairing.entries, settings)
        name = f"{submission.team.name} #{submission.id}"
        suite = SuiteEvaluation(name, tuple(results), settings, pairing.unpaired_system)
        output = os.path.join(target, path)
        page = suite_html([suite], settings, metrics, f"{task.name}: {name}", output)
        # the site is public: the server's directories shown as gold/ and submission/
        return public_text(page, task.gold_dir, submission.directory, html.escape, os.path.dirname(output))
    return make


def _publish(db, service, engine, args, significance, stdout: TextIO) -> None:
    from ..leaderboard import publish  # here: the leaderboard extra, as in leaderboard_command
    db.require_current(engine)
    with db.session_scope(engine) as session:
        task = service.the_task(session)
        service.require_gold_unchanged(task)
        maker = None if args.no_reports else _report_maker(task, args.directory)
        pages = publish.build_site(session, task, significance, maker)
    written = publish.write_site(pages, args.directory)
    reports = sum(path.startswith("reports/") for path in written)
    stdout.write(f"{printable(args.directory)}: {len(written)} page(s), {reports} submission report(s); "
                 "open index.html\n")


def _store_dir(args, url: str) -> str:
    if args.store:
        return args.store
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:" and len(url) > len("sqlite:///"):
        return url[len("sqlite:///"):] + ".files"
    raise UsageError(f"{PROG} init: give --store DIR, where submitted files are kept")


def _task_metrics(args) -> tuple:
    known = [display_name(name) for name in profile_metrics(args.profile)]
    primary = metric_list(args.primary, known, "--primary", f"{PROG} init")
    if len(primary) != 1:
        raise UsageError(f"{PROG} init: --primary takes one metric")
    shown = metric_list(args.metrics, known, "--metrics", f"{PROG} init") if args.metrics else \
        [m for m in ("LAS", "MLAS", "BLEX", "CLAS", "UAS") if m in known]
    return primary[0], list(dict.fromkeys([primary[0], *shown]))


def leaderboard_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    parser = build_leaderboard_parser()
    args = parser.parse_args(argv)
    if args.action in ("rank", "publish"):
        check_resampling_options(parser, argparse.Namespace(**{**vars(args), "resamples": 1 if args.resamples is None else args.resamples}))
    try:
        # here: only the leaderboard needs SQLAlchemy and Alembic (the leaderboard extra);
        # scoring and every other command never import them (start-up time, dependencies)
        from ..leaderboard import clusters, db, ranking, service
    except ImportError as exc:
        error = ConllEvalError(f"needs the leaderboard extra ({printable(str(exc))}): "
                               "pip install 'conll_eval[leaderboard]'")
        error.code = "missing-extra"  # type: ignore[attr-defined]
        raise error from exc
    engine = db.open_engine(args.db, create=args.action == "init")
    try:
        if args.action == "init":
            primary, metrics = _task_metrics(args)
            if args.daily_limit < 0:
                raise UsageError(f"{PROG} init: --daily-limit takes 0 (no limit) or more")
            task = service.init_task(engine, args.name, args.gold, _store_dir(args, args.db), args.profile,
                                     metrics, primary, args.level, args.phase, args.daily_limit)
            stdout.write(f"task {printable(task.name)!r}: {len(task.gold_files)} treebank(s), "
                         f"{task.phase} phase, ranked by {task.primary_metric}; schema "
                         f"{db.head_revision()}\n")
        elif args.action == "upgrade":
            before = db.current_revision(engine)
            db.migrate(engine)
            stdout.write(f"schema {printable(before or 'none')} -> {db.head_revision()}\n")
        elif args.action == "team":
            token = service.add_team(engine, args.name)
            stdout.write(f"team {printable(args.name)!r} added; its token (shown once, keep it):\n{token}\n")
        elif args.action == "organiser":
            from ..leaderboard import organisers  # here: the leaderboard extra, as above
            token = organisers.add_organiser(engine, args.name)
            stdout.write(f"organiser {printable(args.name)!r} added; its token (shown once, keep it):\n{token}\n")
        elif args.action == "serve":
            engine.dispose()
            return serve(args, stdout, lambda message: db.LeaderboardError(message, "cannot-listen"))
        elif args.action == "submit":
            return _submit(db, service, engine, args, stdout)
        elif args.action == "work":
            return _work(args, stdout)
        elif args.action == "rank":
            significance = clusters.Significance(args.resamples, args.seed, args.alpha, args.correction)
            _rank(db, ranking, service, engine, args, significance, stdout)
        elif args.action == "publish":
            _publish(db, service, engine, args, clusters.Significance(args.resamples, args.seed, args.alpha,
                                                                      args.correction), stdout)
        else:
            _rescore(engine, args, stdout)
        return EXIT_OK
    finally:
        engine.dispose()


def _rescore(engine, args, stdout: TextIO) -> None:
    from ..leaderboard import rescoring  # here: the leaderboard extra, as in leaderboard_command
    done = rescoring.rescore(engine, queued=args.queue)
    if args.queue:
        stdout.write(f"{done.queued} submission(s) queued for the workers\n")
        return
    taken = f"; {done.taken} taken by a worker meanwhile, which scores it" if done.taken else ""
    stdout.write(f"{done.scored} submission(s) scored again{taken}\n")


def _submit(db, service, engine, args, stdout: TextIO) -> int:
    submission = service.submit(engine, args.team, args.path, args.label, queue=args.queue)
    if submission.status == "queued":
        stdout.write(f"submission {submission.id}: queued\n")
        return EXIT_OK
    if submission.status == "failed":
        raise db.LeaderboardError(f"submission {submission.id} failed: {submission.error}",
                                       "submission-failed")
    with db.session_scope(engine) as session:
        task = service.the_task(session)
        metric = task.primary_metric
    f1 = (submission.macro or {}).get(metric, {}).get("f1")
    stdout.write(f"submission {submission.id}: done; {metric} macro F1 "
                 f"{'n/a' if f1 is None else f'{100 * f1:.2f}'}\n")
    for result in submission.results:
        if result.status != "ok":
            stdout.write(f"  {printable(result.treebank)} scored 0: {printable(result.status)}\n")
    return EXIT_OK


def _work(args, stdout: TextIO) -> int:
    from ..leaderboard import db, workers  # here: the leaderboard extra, as in leaderboard_command
    settings = workers.WorkSettings(args.db, args.workers, args.once, args.lease)
    if args.time_limit:
        settings = dataclasses.replace(settings, time_limit=args.time_limit)
    if args.memory_limit:
        settings = dataclasses.replace(settings, memory_limit=int(args.memory_limit * (1 << 20)))

    def report(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()
    failed = workers.run_workers(settings, report)
    if failed:
        raise db.LeaderboardError(f"{failed} worker(s) ended with an error; see above", "worker-failed")
    return EXIT_OK


def _rank(db, ranking, service, engine, args, significance, stdout: TextIO) -> None:
    db.require_current(engine)
    with db.session_scope(engine) as session:
        task = service.the_task(session)
        service.require_gold_unchanged(task)
        entries, comparisons = ranking.ranking_and_comparisons(session, task, args.all, significance)
        languages = ranking.language_rows(task, entries)
        history = ranking.team_history(session, task) if args.history else None
        if args.format == "json":
            text = ranking.ranking_json(entries, significance, languages, history, comparisons)
        elif args.format == "html":
            text = ranking.ranking_html(task, entries, significance, languages, history)
        else:
            text = ranking.ranking_tables(task, entries, args.format, significance, languages, history)
    if args.output:
        write_atomically(args.output, text, [gold.path for gold in task.gold_files])
    else:
        stdout.write(text)
