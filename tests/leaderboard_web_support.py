"""What the web app's tests share: a task with two teams and an organiser served by a Starlette
TestClient (:func:`served`, the ``web`` fixture's body; SQLite and PostgreSQL through ``database_url``), archives built in
tmp_path, a worker pass run in this process through the queue's own functions, and the suite
CLI's JSON of a directory (what the API's leaderboard must equal digit for digit)."""
import io
import json
import os
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from conll_eval.cli import main
from conll_eval.leaderboard import db, queue, service
from conll_eval.leaderboard.models import Submission
from conll_eval.leaderboard.scoring import score_directory
from conll_eval.leaderboard.web import WebSettings, create_app
from leaderboard_support import run

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SECURITY = {"content-security-policy": ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
                                        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
            "x-content-type-options": "nosniff", "referrer-policy": "no-referrer"}


@dataclass
class Web:
    url: str
    gold: Path
    store: Path
    tmp: Path
    client: object
    app: object
    tokens: dict

    def bearer(self, team="ACME"):
        return {"Authorization": f"Bearer {self.tokens[team]}"}

    def upload(self, path, team="ACME", label=None, client=None):
        data = {} if label is None else {"label": label}
        with open(path, "rb") as handle:
            return (client or self.client).post("/api/submissions", headers=self.bearer(team),
                                                files={"archive": (Path(path).name, handle)}, data=data)


def last_line(output):
    return output.strip().splitlines()[-1]


def make_web(tmp_path, url, *init_options, secure=False, **settings):
    # here: the test modules skip without the leaderboard extra before they build a web app
    from starlette.testclient import TestClient
    gold = tmp_path / "gold"
    if not gold.exists():
        shutil.copytree(EXAMPLES / "GOLD_DIR", gold)
    store = tmp_path / "store"
    status, _, err = run("init", "--db", url, "--name", "Toy task", "--gold", str(gold), "--store", str(store),
                         *init_options)
    assert (status, err) == (0, ""), err
    tokens = {}
    for name in ("ACME", "Bravo"):
        status, out, _ = run("team", "add", "--db", url, name)
        tokens[name] = last_line(out)
    status, out, err = run("organiser", "add", "--db", url, "Chair")
    assert status == 0, err
    tokens["Chair"] = last_line(out)
    app = create_app(WebSettings(url, secure_cookies=secure, **settings))
    client = TestClient(app, base_url="https://testserver" if secure else "http://testserver",
                        raise_server_exceptions=True)
    return Web(url, gold, store, tmp_path, client, app, tokens)


def served(tmp_path, url):
    """The body of the test modules' ``web`` fixture: a task without a daily limit, served."""
    made = make_web(tmp_path, url, "--daily-limit", "0")
    with made.client:
        yield made
    made.app.state.web.engine.dispose()


def build_zip(path, files):
    """A zip of ``{name: bytes}``."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name, data in files.items():
            bundle.writestr(name, data)
    return path


def zip_of(directory, path, only=None):
    """A zip of ``directory``'s .conllu files (``only``: those names)."""
    files = {p.name: p.read_bytes() for p in sorted(Path(directory).glob("*.conllu"))
             if only is None or p.name in only}
    return build_zip(path, files)


def score_queue(url):
    """One worker pass in this process: claim, score (as a worker's child does), finish;
    how many submissions were scored."""
    engine = db.open_engine(url)
    scored = 0
    try:
        while (claim := queue.claim_next(engine, "test-worker", 60)) is not None:
            with db.session_scope(engine) as session:
                task = service.the_task(session)
                submission = session.get(Submission, claim.submission_id)
                arguments = (task.gold_dir, submission.directory, task.profile, task.level,
                             service.sentence_metrics(task), task.primary_metric)
            assert queue.advance(engine, claim, "scoring", 60)
            assert queue.finish(engine, claim, score_directory(*arguments))
            scored += 1
    finally:
        engine.dispose()
    return scored


def suite_json(gold, system):
    """``conll_eval suite gold submission --format json``'s document (the CLI, in this process)
    run from a directory holding ``gold`` and ``submission`` (links to ``gold`` and ``system``):
    the treebank objects as the web app and the site show them, their paths the public ones."""
    view = Path(tempfile.mkdtemp(prefix="suite-view-"))
    (view / "gold").symlink_to(Path(gold).resolve(), target_is_directory=True)
    (view / "submission").symlink_to(Path(system).resolve(), target_is_directory=True)
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    try:
        os.chdir(view)
        status = main(["suite", "gold", "submission", "--format", "json"], out, err)
    finally:
        os.chdir(here)
        shutil.rmtree(view)
    assert status in (0, 1), err.getvalue()  # 1: a treebank failed (scored 0)
    return json.loads(out.getvalue())


def submission_directory(url, submission_id):
    engine = db.open_engine(url)
    try:
        with db.session_scope(engine) as session:
            return session.get(Submission, submission_id).directory
    finally:
        engine.dispose()


def assert_secure_headers(response):
    for name, value in SECURITY.items():
        assert response.headers.get(name) == value, (response.request.url, name)
